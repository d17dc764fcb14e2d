// The point read and the list: the hottest reads, one query each on the fast lane (lib/fast-lane.ts), with
// PostgreSQL rendering the objects (applicationJsonSql, held equal to serializeApplication by a test). Point
// reads made together share one query (batchedRead). Below them, the tenant's applications as rows, through
// Prisma, for the partner MCP tools.
import type { z } from "zod";
import { db } from "../db";
import { notFound } from "../errors";
import { batchedRead, readRows } from "../fast-lane";
import { Prisma, type Application, type Decision } from "../generated/prisma/client";
import { paginate, renderListEnvelope, type PageRequest } from "../wire/pagination";
import { RenderedJson } from "../wire/rendered-json";
import { tenantObjectOrThrow, tenantWhere, type Tenant } from "../tenant";
import type { ApplicationStatus, listApplicationsQuerySchema } from "./schemas";
import { applicationJsonSql } from "./serialize";

type RenderedApplicationRow = { position: number; projectId: string; environment: Tenant["environment"]; json: string };

/** The applications asked for in one turn of the event loop, in one query; each project finds only its own. */
const readRenderedApplication = batchedRead<{ projectId: string; id: string }, RenderedApplicationRow>((keys) =>
  readRows<RenderedApplicationRow>(Prisma.sql`SELECT wanted.position::int AS position,
      project_id AS "projectId", environment::text AS environment, ${applicationJsonSql()} AS json
    FROM unnest(${keys.map((key) => key.id)}::text[], ${keys.map((key) => key.projectId)}::text[])
      WITH ORDINALITY AS wanted(application_id, application_project_id, position)
    JOIN applications ON id = wanted.application_id AND project_id = wanted.application_project_id`),
);

export async function retrieveApplication({ tenant, id }: { tenant: Tenant; id: string }): Promise<RenderedJson> {
  const application = tenantObjectOrThrow(tenant, await readRenderedApplication({ projectId: tenant.projectId, id }), () => notFound("application", id));
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


/** The tenant's application with its decision, if decided: another project's is 404 `not_found`, the other environment's 401. */
export async function readOwnApplicationWithDecision(tenant: Tenant, id: string): Promise<Application & { decision: Decision | null }> {
  const application = await db().application.findFirst({ where: { id, projectId: tenant.projectId }, include: { decision: true } });
  return tenantObjectOrThrow(tenant, application, () => notFound("application", id));
}

/** One company's latest applications with the tenant, newest first. */
export function listCompanyApplications(tenant: Tenant, { companyNumber, limit }: { companyNumber: string; limit: number }): Promise<Application[]> {
  return db().application.findMany({ where: { ...tenantWhere(tenant), companyNumber }, orderBy: { id: "desc" }, take: limit });
}

/** How many of the tenant's applications are in `status`, or were created since `createdSince`. */
export function countApplications(tenant: Tenant, filter: { status?: ApplicationStatus; createdSince?: Date }): Promise<number> {
  return db().application.count({
    where: {
      ...tenantWhere(tenant),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.createdSince ? { createdAt: { gte: filter.createdSince } } : {}),
    },
  });
}
