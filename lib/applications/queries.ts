// The point read and the list: the hottest reads, one query each on the fast lane (lib/fast-lane.ts), with
// PostgreSQL rendering the objects (applicationJsonSql, held equal to serializeApplication by a test). Point
// reads made together share one query (batchedRead).
import type { z } from "zod";
import { batchedRead, readRows } from "../fast-lane";
import { Prisma } from "../generated/prisma/client";
import { paginate, renderListEnvelope, type PageRequest } from "../wire/pagination";
import { RenderedJson } from "../wire/rendered-json";
import { assertSameEnvironment, type Tenant } from "../tenant";
import type { listApplicationsQuerySchema } from "./schemas";
import { applicationJsonSql } from "./serialize";
import { noSuchApplication } from "./service";

type RenderedApplicationRow = { position: number; environment: Tenant["environment"]; json: string };

/** The applications asked for in one turn of the event loop, in one query; each project finds only its own. */
const readRenderedApplication = batchedRead<{ projectId: string; id: string }, RenderedApplicationRow>((keys) =>
  readRows<RenderedApplicationRow>(Prisma.sql`SELECT wanted.position::int AS position,
      environment::text AS environment, ${applicationJsonSql()} AS json
    FROM unnest(${keys.map((key) => key.id)}::text[], ${keys.map((key) => key.projectId)}::text[])
      WITH ORDINALITY AS wanted(application_id, application_project_id, position)
    JOIN applications ON id = wanted.application_id AND project_id = wanted.application_project_id`),
);

export async function retrieveApplication({ tenant, id }: { tenant: Tenant; id: string }): Promise<RenderedJson> {
  const application = await readRenderedApplication({ projectId: tenant.projectId, id });
  if (!application) throw noSuchApplication(id);
  assertSameEnvironment(tenant, application);
  return new RenderedJson(application.json);
}

export async function listApplications(options: { tenant: Tenant; query: z.output<typeof listApplicationsQuerySchema>; url: string }): Promise<RenderedJson> {
  const { tenant, query } = options;
  const filters = [
    Prisma.sql`project_id = ${tenant.projectId}`,
    Prisma.sql`environment = ${tenant.environment}::"Environment"`,
    ...(query.status ? [Prisma.sql`status = ${query.status}::"ApplicationStatus"`] : []),
    ...(query.reference ? [Prisma.sql`reference = ${query.reference}`] : []),
    ...(query.created_after ? [Prisma.sql`created_at > ${query.created_after}`] : []),
  ];
  const page = await paginate({
    kind: "application",
    page: query satisfies PageRequest,
    url: options.url,
    fetch: (window) => {
      const cursor = !window.id ? [] : "lt" in window.id ? [Prisma.sql`id < ${window.id.lt}`] : [Prisma.sql`id > ${window.id.gt}`];
      const order = window.orderBy.id === "asc" ? Prisma.sql`ASC` : Prisma.sql`DESC`;
      return readRows<{ id: string; json: string }>(Prisma.sql`SELECT id, ${applicationJsonSql()} AS json FROM applications
        WHERE ${Prisma.join([...filters, ...cursor], " AND ")} ORDER BY id ${order} LIMIT ${window.take}`);
    },
    // The cursor must be one of the caller's applications in this environment; filters do not apply to it.
    exists: async (id) => {
      const rows = await readRows<{ id: string }>(Prisma.sql`SELECT id FROM applications
        WHERE id = ${id} AND project_id = ${tenant.projectId} AND environment = ${tenant.environment}::"Environment"`);
      return rows.length === 1;
    },
    serialize: (row) => new RenderedJson(row.json),
  });
  return renderListEnvelope(page);
}

