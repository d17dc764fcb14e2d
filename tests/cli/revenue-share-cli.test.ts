// `project set-revenue-share`, run in this process against the test database: setting a project's master rate,
// which a new sub-account then earns by default and may not exceed, and refusing a bad --bps or an unknown project.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { createSubAccount } from "@/lib/revenue-share/sub-accounts";
import type { Tenant } from "@/lib/tenant";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";

const cli = (...args: string[]) => runCli({}, "project", "set-revenue-share", ...args);
const stored = async (projectId: string) => (await db().project.findUniqueOrThrow({ where: { id: projectId } })).revenueShareBps;
const NOW = new Date("2027-03-01T09:00:00.000Z");

describe("project set-revenue-share", () => {
  it("starts a new project at 100 bps and sets the master rate a new sub-account then earns by default", async () => {
    const { project_id } = await createTestProject();
    expect(await stored(project_id)).toBe(100);
    const tenant: Tenant = { projectId: project_id, environment: "sandbox" };

    const set = await cli(project_id, "--bps", "250");
    expect(set).toMatchObject({ code: 0, stdout: `Project ${project_id} master revenue share: 250 bps.\n`, stderr: "" });
    expect(await stored(project_id)).toBe(250);
    const defaulted = await createSubAccount({ tenant, now: NOW, input: { name: "Northside Brokers" } });
    expect(defaulted).toMatchObject({ object: "sub_account", name: "Northside Brokers", revenue_share_bps: 250 });

    // A sub-account made before a change keeps its rate; the new master rate caps the next one.
    const json = await cli(project_id, "--bps", "40", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ project_id, revenue_share_bps: 40 });
    expect((await db().subAccount.findUniqueOrThrow({ where: { id: defaulted.id } })).revenueShareBps).toBe(250);
    expect((await createSubAccount({ tenant, now: NOW, input: { name: "Second" } })).revenue_share_bps).toBe(40);
    const above = await createSubAccount({ tenant, now: NOW, input: { name: "Third", revenue_share_bps: 41 } }).catch((error: unknown) => error);
    expect(above).toBeInstanceOf(ApiError);
    expect((above as ApiError).code).toBe("validation_failed");
    expect(await db().subAccount.count({ where: { projectId: project_id } })).toBe(2);
  });

  it("takes the bounds, 0 and 10000", async () => {
    const { project_id } = await createTestProject();
    expect((await cli(project_id, "--bps", "10000")).code).toBe(0);
    expect(await stored(project_id)).toBe(10_000);
    expect((await cli(project_id, "--bps", "0")).code).toBe(0);
    expect(await stored(project_id)).toBe(0);
  });

  it.each([
    ["missing", [], "--bps: is required"],
    ["above 10000", ["--bps", "10001"], "--bps: must be at most 10000"],
    ["negative", ["--bps=-5"], "--bps: must be a whole number of basis points"],
    ["fractional", ["--bps", "1.5"], "--bps: must be a whole number of basis points"],
    ["not a number", ["--bps", "ten"], "--bps: must be a whole number of basis points"],
    ["empty", ["--bps", ""], "--bps: must be a whole number of basis points"],
  ])("refuses a %s --bps as a usage error (exit 2), changing nothing", async (_what, args, message) => {
    const { project_id } = await createTestProject();
    const refused = await cli(project_id, ...args);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`error: ${message}`);
    expect(await stored(project_id)).toBe(100);
  });

  it("fails for an unknown project (exit 1)", async () => {
    const refused = await cli("proj_01jzzzzzzzzzzzzzzzzzzzzzzz", "--bps", "50");
    expect(refused).toMatchObject({ code: 1, stdout: "", stderr: "error: No such project: proj_01jzzzzzzzzzzzzzzzzzzzzzzz.\n" });
  });

  it("needs the project id", async () => {
    const refused = await cli("--bps", "50");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('expected 1 argument(s) after "project set-revenue-share"');
  });
});
