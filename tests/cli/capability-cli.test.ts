// `project capability`, run in this process against the test database: showing, enabling and disabling a
// project's capabilities, and refusing an unknown capability or project.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { readProjectState } from "@/lib/projects/project-state";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";

const cli = (...args: string[]) => runCli({}, "project", "capability", ...args);
const stored = async (projectId: string) => (await db().project.findUniqueOrThrow({ where: { id: projectId } })).capabilities;

describe("project capability", () => {
  it("shows none for a new project", async () => {
    const { project_id } = await createTestProject();
    const shown = await cli(project_id);
    expect(shown).toMatchObject({ code: 0, stdout: `Project ${project_id} capabilities: none.\n` });
  });

  it("enables white_label, and enabling it again changes nothing", async () => {
    const { project_id } = await createTestProject();
    const enabled = await cli(project_id, "--enable", "white_label", "--json");
    expect(enabled.code).toBe(0);
    expect(JSON.parse(enabled.stdout)).toEqual({ project_id, capabilities: ["white_label"] });
    expect(await stored(project_id)).toEqual(["white_label"]);
    // This process hears the change too: its cached project state has the capability.
    expect((await readProjectState(project_id))?.capabilities).toEqual(["white_label"]);

    expect((await cli(project_id, "--enable", "white_label")).stdout).toBe(`Project ${project_id} capabilities: white_label.\n`);
    expect(await stored(project_id)).toEqual(["white_label"]);
  });

  it("enables several at once and disables one, leaving the other", async () => {
    const { project_id } = await createTestProject();
    expect((await cli(project_id, "--enable", "beta", "--enable", "white_label")).code).toBe(0);
    expect(await stored(project_id)).toEqual(["white_label", "beta"]);
    const disabled = await cli(project_id, "--disable", "white_label");
    expect(disabled).toMatchObject({ code: 0, stdout: `Project ${project_id} capabilities: beta.\n` });
    expect(await stored(project_id)).toEqual(["beta"]);
    expect((await cli(project_id, "--disable", "white_label")).code).toBe(0);
    expect(await stored(project_id)).toEqual(["beta"]);
  });

  it("refuses an unknown capability as a usage error, changing nothing", async () => {
    const { project_id } = await createTestProject();
    const refused = await cli(project_id, "--enable", "gold");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error: --enable: unknown capability "gold" (capabilities: white_label, beta)');
    expect(await stored(project_id)).toEqual([]);
  });

  it("refuses to enable and disable the same capability at once", async () => {
    const { project_id } = await createTestProject();
    const refused = await cli(project_id, "--enable", "beta", "--disable", "beta");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("error: cannot both --enable and --disable beta");
  });

  it("fails for an unknown project", async () => {
    for (const args of [["--enable", "white_label"], []]) {
      const refused = await cli("proj_01jzzzzzzzzzzzzzzzzzzzzzzz", ...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe("error: No such project: proj_01jzzzzzzzzzzzzzzzzzzzzzzz.\n");
    }
  });

  it("needs the project id", async () => {
    const refused = await cli("--enable", "white_label");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('expected 1 argument(s) after "project capability"');
  });
});
