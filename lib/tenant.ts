// The tenant a partner request acts for: one project in one environment. Services take a Tenant, never a token
// principal, so the hosted journey, the CLI and the seed call them as the partner API does.
import { ApiError } from "./errors";
import type { Environment } from "./generated/prisma/client";

/** The one name for sandbox or live, in keys, tokens, tenants and rows alike (the database's enum). */
export type TenantEnvironment = Environment;

export interface Tenant {
  projectId: string;
  environment: TenantEnvironment;
  /**
   * The sandbox test clock's offset as the request's admission read it with the project's state, so services
   * stamping this tenant's objects need no second read (lib/tenant-clock.ts). Absent: looked up when needed.
   */
  sandboxClockOffsetDays?: number;
}

/**
 * The tenant's filter for lists and counts: its project in its environment. Lists filter with this; a read by id
 * goes through tenantObjectOrThrow instead, so the other environment's object is refused, not reported unknown.
 */
export function tenantWhere(tenant: Tenant): { projectId: string; environment: TenantEnvironment } {
  return { projectId: tenant.projectId, environment: tenant.environment };
}

/** A sandbox caller touching a live object, or the reverse, is refused; it is never silently downgraded. */
export function assertSameEnvironment(tenant: Tenant, object: { environment: TenantEnvironment }): void {
  if (object.environment === tenant.environment) return;
  throw new ApiError("environment_mismatch", {
    message: `This object belongs to the ${object.environment} environment; the token is for ${tenant.environment}.`,
  });
}

/**
 * The one tenancy rule for an object read by id (spec 5.1, 7.2): none, or another project's, is `missing` (404,
 * as if unknown); the other environment's is 401 `environment_mismatch`. Reads find the object by id within the
 * project, never within the environment, so the other environment's object is there to be refused.
 */
export function tenantObjectOrThrow<T extends { projectId: string | null; environment: TenantEnvironment }>(tenant: Tenant, object: T | null | undefined, missing: () => ApiError): T {
  if (!object || object.projectId !== tenant.projectId) throw missing();
  assertSameEnvironment(tenant, object);
  return object;
}
