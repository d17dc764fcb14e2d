// `cli usage --project proj_… [--environment sandbox|live] [--json]`: the project's last 30 days of partner API
// requests and 429s, run in this process against the test database with a frozen clock.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";

let project: ProjectCredentials;

const NOW = "2027-05-30T15:00:00.000Z";
beforeEach(() => void freezeClock(NOW));

beforeAll(async () => {
  project = await createTestProject();
  const row = (environment: "sandbox" | "live", day: string, requests: number, rateLimited: number) => ({ projectId: project.project_id, environment, day: new Date(day), requests, rateLimited });
  await db().projectUsageDay.createMany({
    data: [row("live", "2027-05-01", 7, 0), row("live", "2027-05-30", 120, 4), row("sandbox", "2027-05-29", 51, 1), row("live", "2027-04-30", 999, 9)],
  });
});

describe("usage", () => {
  it("prints the live environment's 30 days with --json, oldest first, zeros where there was no traffic", async () => {
    const { code, stdout, stderr } = await runCli({}, "usage", "--project", project.project_id, "--json");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const days = JSON.parse(stdout) as Array<{ date: string; requests: number; rate_limited: number }>;
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ date: "2027-05-01", requests: 7, rate_limited: 0 });
    expect(days[29]).toEqual({ date: "2027-05-30", requests: 120, rate_limited: 4 });
    expect(days.slice(1, 29).every((day) => day.requests === 0 && day.rate_limited === 0)).toBe(true);
  });

  it("prints the sandbox's with --environment sandbox, one line a day", async () => {
    const { code, stdout } = await runCli({}, "usage", "--project", project.project_id, "--environment", "sandbox");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[0]).toBe(`${project.project_id} (sandbox), last 30 days:`);
    expect(lines[29]).toBe("2027-05-29         51 requests        1 rate limited");
    expect(lines[30]).toBe("2027-05-30          0 requests        0 rate limited");
  });

  it("exits 1 for an unknown project and 2 for a missing project or an unknown environment", async () => {
    const unknown = await runCli({}, "usage", "--project", "proj_00000000000000000000000000");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such project: proj_00000000000000000000000000");
    expect((await runCli({}, "usage")).code).toBe(2);
    const badEnvironment = await runCli({}, "usage", "--project", project.project_id, "--environment", "staging");
    expect(badEnvironment.code).toBe(2);
    expect(badEnvironment.stderr).toMatch(/^error: --environment: /);
  });
});
