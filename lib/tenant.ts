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

/**
 * A person reading their company's accounts (a sign-in access token with `accounts.read`, docs/sign-in.md): the
 * accounts whose borrower is `companyNumber`, in one environment, whichever partner's project holds them. No
 * company number, no accounts.
 */
export interface AccountHolder {
  companyNumber: string | null;
  environment: TenantEnvironment;
}

/** Whose objects a read sees: a partner's tenant, or an account holder. */
export type Reader = Tenant | AccountHolder;

export function isAccountHolder(reader: Reader): reader is AccountHolder {
  return "companyNumber" in reader;
}

/** The account holder's filter for lists: their company's accounts in their environment (none without a company). */
export function accountHolderWhere(holder: AccountHolder): { companyNumber: string; environment: TenantEnvironment } | { id: { in: [] } } {
  return holder.companyNumber ? { companyNumber: holder.companyNumber, environment: holder.environment } : { id: { in: [] } };
}

/**
 * The tenancy rule for an account holder's read by id, as for a tenant's: none, or another company's, is
 * `missing` (404); their company's in the other environment is 401 `environment_mismatch`.
 */
export function holderObjectOrThrow<T extends { companyNumber: string; environment: TenantEnvironment }>(holder: AccountHolder, object: T | null | undefined, missing: () => ApiError): T {
  if (!object || !holder.companyNumber || object.companyNumber !== holder.companyNumber) throw missing();
  if (object.environment !== holder.environment) {
    throw new ApiError("environment_mismatch", { message: `This account belongs to the ${object.environment} environment; you signed in as a ${holder.environment} user.` });
  }
  return object;
}
