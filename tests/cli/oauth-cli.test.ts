// `cli oauth rotate-signing-key`, in a database of its own: the signing key is platform-wide state, and the CLI
// runs in this process, on this process's database.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { useIsolatedDatabase } from "../helpers/isolated-database";

beforeAll(async () => {
  await useIsolatedDatabase("cli_rotation");
});

describe("oauth rotate-signing-key", () => {
  it("rotates the signing key (in a database of its own)", async () => {
    for (let rotation = 0; rotation < 2; rotation += 1) {
      const result = await runCli({}, "oauth", "rotate-signing-key", "--json");
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ rotated: true });
    }
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query("SELECT status, active_slot FROM oauth_signing_keys ORDER BY created_at");
    await client.end();
    expect(rows).toEqual([
      { status: "retired", active_slot: null },
      { status: "active", active_slot: "current" },
    ]);
  });
});
