// What the MCP servers may reach, checked by reading the source: the partner tools read through the domains'
// queries (lib/<domain>/queries.ts), never the database client, and nothing in lib/mcp sees the route's bearer
// token: the endpoints (app/_endpoints/mcp.ts) turn it into the caller as plain data.
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

  it("hands the bearer token to nothing in lib/mcp", () => {
    const offending = files.filter(({ file, text }) => /\bBearerToken\b|from\s+"[./]*(http\/route|http\/auth|oauth\/access-tokens)"/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });
});
