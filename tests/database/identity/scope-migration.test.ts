// Migration 20261126130000_identity_checks grants the new identity:read scope to the projects that already held
// identity:write (new projects are granted every scope when created). Its UPDATE is run again here over
// projects made as they were before it, and only over them: other files' projects share the database.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestProject } from "../../helpers/partner";

const migration = readFileSync("prisma/migrations/20261126130000_identity_checks/migration.sql", "utf8");
const grant = /^UPDATE "projects" SET "scopes"[\s\S]*?;$/m.exec(migration)?.[0];

const scopesOf = async (projectId: string) => (await db().project.findUniqueOrThrow({ where: { id: projectId } })).scopes;

it("grants identity:read to projects holding identity:write, once, and to no other", async () => {
  expect(grant).toBeDefined();
  const writer = await createTestProject({ scopes: ["applications:read", "identity:write"] });
  const outsider = await createTestProject({ scopes: ["applications:read"] });
  const both = await createTestProject({ scopes: ["identity:read", "identity:write"] });

  const ours = [writer, outsider, both].map((project) => project.project_id);
  const grantToOurs = grant!.replace(/;$/, ' AND "id" = ANY($1::text[])');
  await db().$executeRawUnsafe(grantToOurs, ours);
  await db().$executeRawUnsafe(grantToOurs, ours);

  expect(await scopesOf(writer.project_id)).toEqual(["applications:read", "identity:write", "identity:read"]);
  expect(await scopesOf(outsider.project_id)).toEqual(["applications:read"]);
  expect(await scopesOf(both.project_id)).toEqual(["identity:read", "identity:write"]);
});
