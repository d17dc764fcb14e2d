// The tenant a partner request acts for: one project in one environment. Services take a Tenant, never a token
// principal, so the hosted journey, the CLI and the seed call them as the partner API does.
import { ApiError } from "./errors";
import type { KeyEnvironment } from "./keys/secrets";

export interface Tenant {
  projectId: string;
  environment: KeyEnvironment;
  /**
   * The sandbox test clock's offset as the request's admission read it with the project's state, so services
   * stamping this tenant's objects need no second read (lib/tenant-clock.ts). Absent: looked up when needed.
   */
  sandboxClockOffsetDays?: number;
}

/** A sandbox caller touching a live object, or the reverse, is refused; it is never silently downgraded. */
export function assertSameEnvironment(tenant: Tenant, object: { environment: KeyEnvironment }): void {
  if (object.environment === tenant.environment) return;
  throw new ApiError("environment_mismatch", {
    message: `This object belongs to the ${object.environment} environment; the token is for ${tenant.environment}.`,
  });
}
