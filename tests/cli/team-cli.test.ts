// `cli team add | remove | list`: a project's team from the admin command line.
import { describe, expect, it } from "vitest";
import { listAuditEntries } from "@/lib/team/audit";
import { runCli } from "../helpers/cli";
import { createTestProject } from "../helpers/partner";
import { createTestUser } from "../helpers/sign-in";

describe("team", () => {
  it("adds people with a role, lists them owners first, and removes them", async () => {
    const { project_id } = await createTestProject();
    const owner = await createTestUser();
    const viewer = await createTestUser();
    const added = await runCli({}, "team", "add", "--project", project_id, "--email", owner.email, "--role", "owner", "--json");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ project_id, user_id: owner.id, role: "owner", created_at: expect.any(String) });
    expect(await runCli({}, "team", "add", "--project", project_id, "--email", viewer.email, "--role", "viewer")).toMatchObject({
      code: 0,
      stdout: `${viewer.id} is viewer of ${project_id}\n`,
    });

    const listed = await runCli({}, "team", "list", "--project", project_id, "--json");
    expect(JSON.parse(listed.stdout).data.map((member: { user_id: string; role: string }) => [member.user_id, member.role])).toEqual([
      [owner.id, "owner"],
      [viewer.id, "viewer"],
    ]);
    expect((await runCli({}, "team", "list", "--project", project_id)).stdout).toBe(`${owner.id}  owner\n${viewer.id}  viewer\n`);

    // Adding a member again changes their role.
    expect((await runCli({}, "team", "add", "--project", project_id, "--email", viewer.email, "--role", "developer")).stdout).toBe(`${viewer.id} is developer of ${project_id}\n`);

    const removed = await runCli({}, "team", "remove", "--project", project_id, "--user", viewer.id, "--json");
    expect(JSON.parse(removed.stdout)).toMatchObject({ project_id, user_id: viewer.id, removed: true });
    expect((await listAuditEntries({ projectId: project_id })).map((entry) => [entry.actorId, entry.action])).toEqual([
      ["cli", "member.removed"],
      ["cli", "member.role_changed"],
      ["cli", "member.added"],
      ["cli", "member.added"],
    ]);
  });

  it("refuses a user who does not exist, the last owner's removal, and a role that is not one of the three", async () => {
    const { project_id } = await createTestProject();
    const owner = await createTestUser();
    const missing = await runCli({}, "team", "add", "--project", project_id, "--email", "nobody@example.test", "--role", "viewer");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No user has this email address");
    await runCli({}, "team", "add", "--project", project_id, "--email", owner.email, "--role", "owner");
    const last = await runCli({}, "team", "remove", "--project", project_id, "--user", owner.id);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("The last owner of a project cannot be removed");
    const badRole = await runCli({}, "team", "add", "--project", project_id, "--email", owner.email, "--role", "admin");
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role: must be owner, developer or viewer");
  });

  it("lists an empty team plainly", async () => {
    const { project_id } = await createTestProject();
    expect(await runCli({}, "team", "list", "--project", project_id)).toMatchObject({ code: 0, stdout: `${project_id} has no team members yet.\n` });
  });
});
