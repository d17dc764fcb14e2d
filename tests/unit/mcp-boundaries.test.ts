// What the MCP servers may reach, checked by reading the source: the partner tools read through the domains'
// queries (lib/<domain>/queries.ts), never the database client, and only the endpoints, which bind the servers to
// HTTP, see the route's bearer token; the servers and tools get the caller as plain data.
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";

const files = readSourceFiles(["lib/mcp"]);

describe("the MCP servers' boundaries", () => {
  it("finds the partner tools to check", () => {
    expect(files.map(({ file }) => file)).toEqual(expect.arrayContaining(["lib/mcp/partner-tools/index.ts", "lib/mcp/partner-tools/loans.ts"]));
  });

  it("has no partner tool reach the database but through a domain", () => {
    const offending = files.filter(({ file, text }) => file.startsWith("lib/mcp/partner-tools/") && /from\s+"[./]*(db|fast-lane|generated\/[^"]*)"|\bdb\(\)/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it("hands the bearer token to nothing past the endpoints", () => {
    const offending = files.filter(({ file, text }) => file !== "lib/mcp/endpoints.ts" && /\bBearerToken\b|from\s+"[./]*(http\/route|http\/auth|oauth\/access-tokens)"/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });
});
