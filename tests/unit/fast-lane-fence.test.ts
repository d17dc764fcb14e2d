// The fast lane (hand-written SQL on the shared pool, the batched transaction) serves only the hot paths the
// benchmark measures (docs/performance.md); everything else goes through Prisma. This holds it to them.
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";

/** The measured hot paths: the application point read and list, the account read and its ledger page, the MCP loan-status call's audit row, the token endpoint's key lookup, the Idempotency-Key claim, and the create. */
const FAST_LANE_ALLOWED = [
  "lib/applications/queries.ts",
  "lib/accounts/queries.ts",
  "lib/mcp/audit.ts",
  "lib/applications/batched-transaction.ts",
  "lib/oauth/client-authentication.ts",
  "lib/idempotency/idempotency.ts",
];
const BATCHED_TRANSACTION_ALLOWED = ["lib/applications/create.ts", "app/partner/v1/applications/route.ts"];
const SHARED_POOL_ALLOWED = ["lib/fast-lane.ts"];

const files = readSourceFiles(["app", "lib", "bin", "inngest", "scripts"]);

function importersOf(module: RegExp): string[] {
  return files.filter(({ text }) => [...text.matchAll(/from\s+"([^"]+)"/g)].some((match) => module.test(match[1]!))).map(({ file }) => file).sort();
}

describe("the fast lane", () => {
  it("is imported only by the measured hot paths", () => {
    expect(importersOf(/(^|\/)fast-lane$/)).toEqual([...FAST_LANE_ALLOWED].sort());
  });

  it("has its batched transaction used only by the application create", () => {
    expect(importersOf(/(^|\/)batched-transaction$/)).toEqual([...BATCHED_TRANSACTION_ALLOWED].sort());
  });

  it("is the only module that reaches the pool Prisma shares", () => {
    const users = files.filter(({ file, text }) => file !== "lib/db.ts" && /\bsharedPool\(/.test(text)).map(({ file }) => file);
    expect(users).toEqual(SHARED_POOL_ALLOWED);
  });

  it("sees the sources it fences (the scan is not vacuous)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some(({ file }) => file === "lib/applications/queries.ts")).toBe(true);
  });
});
