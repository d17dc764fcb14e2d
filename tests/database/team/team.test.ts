// A project's team (lib/team): adding people by email, changing roles, removing them, and a project never left
// without an owner; each change written to the audit log with ids only.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { listAuditEntries } from "@/lib/team/audit";
import { addMember, changeMemberRole, listMembers, membershipsOf, removeMember, roleOf } from "@/lib/team/service";
import { createTestProject } from "../../helpers/partner";
import { createTestUser } from "../../helpers/sign-in";

const acting = { actorId: "usr_actor" };

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

async function projectWithOwner() {
  const { project_id: projectId } = await createTestProject();
  const owner = await createTestUser();
  await addMember({ projectId, email: owner.email, role: "owner" }, acting);
  return { projectId, owner };
}

describe("the team service", () => {
  it("adds an existing user by email, whatever its case, with the role given", async () => {
    const { projectId, owner } = await projectWithOwner();
    const person = await createTestUser();
    const added = await addMember({ projectId, email: person.email.toUpperCase(), role: "developer" }, acting);
    expect(added).toMatchObject({ projectId, userId: person.id, role: "developer" });
    expect((await listMembers({ projectId })).map((member) => [member.userId, member.role])).toEqual([
      [owner.id, "owner"],
      [person.id, "developer"],
    ]);
    expect(await roleOf({ projectId, userId: person.id })).toBe("developer");
    expect(await membershipsOf(person.id)).toEqual([expect.objectContaining({ projectId, role: "developer", projectName: expect.any(String) })]);
  });

  it("refuses an email no user has (404 naming the field, not the address) and a member added twice (409)", async () => {
    const { projectId, owner } = await projectWithOwner();
    const unknown = await refusal(addMember({ projectId, email: "nobody.here@example.test", role: "viewer" }, acting));
    expect(unknown.code).toBe("resource_not_found");
    expect(unknown.message).not.toContain("nobody.here");
    expect((await refusal(addMember({ projectId, email: owner.email, role: "viewer" }, acting))).code).toBe("conflict");
  });

  it("refuses an unknown project and a role that is not one of the three", async () => {
    const person = await createTestUser();
    expect((await refusal(addMember({ projectId: "proj_doesnotexist", email: person.email, role: "viewer" }, acting))).code).toBe("not_found");
    const { projectId } = await projectWithOwner();
    await expect(addMember({ projectId, email: person.email, role: "admin" as never }, acting)).rejects.toThrow(/owner, developer or viewer/);
  });

  it("never removes or demotes the last owner (409), but does once there is another", async () => {
    const { projectId, owner } = await projectWithOwner();
    const removed = await refusal(removeMember({ projectId, userId: owner.id }, acting));
    expect(removed).toEqual({ code: "conflict", message: "The last owner of a project cannot be removed; make someone else an owner first." });
    const demoted = await refusal(changeMemberRole({ projectId, userId: owner.id, role: "developer" }, acting));
    expect(demoted).toEqual({ code: "conflict", message: "The last owner of a project cannot be demoted; make someone else an owner first." });

    const second = await createTestUser();
    await addMember({ projectId, email: second.email, role: "owner" }, acting);
    expect((await changeMemberRole({ projectId, userId: owner.id, role: "viewer" }, acting)).role).toBe("viewer");
    expect((await refusal(removeMember({ projectId, userId: second.id }, acting))).code).toBe("conflict");
    await removeMember({ projectId, userId: owner.id }, acting);
    expect((await listMembers({ projectId })).map((member) => member.userId)).toEqual([second.id]);
  });

  it("two owners demoting each other at once leave one owner", async () => {
    const { projectId, owner } = await projectWithOwner();
    const second = await createTestUser();
    await addMember({ projectId, email: second.email, role: "owner" }, acting);
    const outcomes = await Promise.allSettled([
      changeMemberRole({ projectId, userId: owner.id, role: "viewer" }, acting),
      changeMemberRole({ projectId, userId: second.id, role: "viewer" }, acting),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect((await listMembers({ projectId })).filter((member) => member.role === "owner")).toHaveLength(1);
  });

  it("refuses a change to someone who is not a member (404)", async () => {
    const { projectId } = await projectWithOwner();
    const stranger = await createTestUser();
    expect((await refusal(changeMemberRole({ projectId, userId: stranger.id, role: "viewer" }, acting))).code).toBe("not_found");
    expect((await refusal(removeMember({ projectId, userId: stranger.id }, acting))).code).toBe("not_found");
  });

  it("audits every change with the actor's and the member's ids only", async () => {
    const { projectId, owner } = await projectWithOwner();
    const person = await createTestUser();
    await addMember({ projectId, email: person.email, role: "viewer" }, acting);
    await changeMemberRole({ projectId, userId: person.id, role: "developer" }, acting);
    await removeMember({ projectId, userId: person.id }, acting);
    const entries = await listAuditEntries({ projectId });
    expect(entries.map((entry) => [entry.actorId, entry.action, entry.objectId])).toEqual([
      ["usr_actor", "member.removed", person.id],
      ["usr_actor", "member.role_changed", person.id],
      ["usr_actor", "member.added", person.id],
      ["usr_actor", "member.added", owner.id],
    ]);
    const stored = JSON.stringify(await db().dashboardAuditEntry.findMany({ where: { projectId } }));
    expect(stored).not.toContain(person.email);
    expect(stored).not.toContain("Lovelace");
  });
});
