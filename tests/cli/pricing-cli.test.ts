// `cli pricing show|set|history`, in a database of its own: other files read the shared pricing concurrently.
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";
import { useIsolatedDatabase } from "../helpers/isolated-database";

let env: Record<string, string>;

beforeAll(async () => {
  await useIsolatedDatabase("pricing_cli");
  env = { DATABASE_URL: process.env.DATABASE_URL! };
});

const cli = (...args: string[]) => runCli(env, ...args);

describe("pricing", () => {
  it("shows the defaults as version 1", async () => {
    const { code, stdout } = await cli("pricing", "show", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      version: 1,
      currency: "GBP",
      business_loan: { amount_min_pounds: 50, amount_max_pounds: 500, term_min_days: 14, term_max_days: 84, daily_rate: 0.0025 },
    });
  });

  it("sets one value as a new version with its note, and lists the history newest first", async () => {
    const set = await cli("pricing", "set", "business_loan.establishment_fee_pounds", "12.5", "--note", "fee review", "--json");
    expect(set.code).toBe(0);
    const updated = JSON.parse(set.stdout);
    expect(updated.business_loan.establishment_fee_pounds).toBe(12.5);
    const arrays = await cli("pricing", "set", "slice.instalment_counts", "[3,6,9]", "--json");
    expect(JSON.parse(arrays.stdout).slice.instalment_counts).toEqual([3, 6, 9]);
    expect(JSON.parse(arrays.stdout).version).toBe(updated.version + 1);

    const history = JSON.parse((await cli("pricing", "history", "--json")).stdout);
    expect(history.slice(0, 2).map((version: { note: string }) => version.note)).toEqual(["set slice.instalment_counts", "fee review"]);
  });

  it.each([
    [["business_loan.amount_min_pounds", "600"], "amount_min_pounds must not exceed amount_max_pounds"],
    [["--", "business_loan.daily_rate", "-0.1"], "business_loan.daily_rate"],
    [["business_loan.daily_rate", "\"high\""], "business_loan.daily_rate"],
    [["business_loan.colour", "1"], "no setting named business_loan.colour"],
    [["business_loan.enabled.deeper", "1"], "business_loan.enabled has no settings under it"],
  ])("refuses %j with exit 2 and stores nothing", async (args, message) => {
    const before = JSON.parse((await cli("pricing", "show", "--json")).stdout).version;
    const { code, stderr } = await cli("pricing", "set", ...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(JSON.parse((await cli("pricing", "show", "--json")).stdout).version).toBe(before);
  });
});
