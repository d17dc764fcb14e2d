// Admission: everything a request must pass before its input is read. Partner routes authenticate the bearer
// token (a local signature check, so it can come first), spend from the project's rate-limit buckets, then have
// their scope checked; a request without a valid token is metered per client address before its 401 is sent.
// The public ring is metered per address, and so is an endpoint with a bucket of its own (`addressLimit`), in
// place of its ring's. The OAuth endpoints (scope `null`) take no bearer token; those that
// authenticate a client are metered per address here, before their body is read, and per client (their
// declared sub-limit) only once the client has authenticated.
import type { PartnerScope } from "../oauth/scopes";
import type { RatePolicy } from "../ratelimit/policies";
import { assertScope, authenticateBearer, type Principal } from "./auth";
import type { Ring } from "../errors";
import { meterAddressRequest, meterAnonymousPartnerRequest, meterClientAuthentication, meterPartnerRequest, meterPublicRequest } from "./metering";
import type { RequestContext } from "./request-context";

export interface Admission {
  principal: Principal | null;
  /** Gives back the request's concurrency slot. */
  release: () => Promise<void>;
}

export const nothingToRelease = async (): Promise<void> => undefined;

/** What an endpoint requires of its caller before its input is read. */
export interface Guards {
  scope: PartnerScope | null;
  authenticatesClient: boolean;
  /** The response is a long-lived stream, whose concurrency slot must outlast it. */
  streams: boolean;
  /** The endpoint's own per-address bucket, spent instead of its ring's (no bearer token, no client to authenticate). */
  addressLimit: RatePolicy | null;
}

export async function admit(ring: Ring, { scope, authenticatesClient, streams, addressLimit }: Guards, request: Request, context: RequestContext): Promise<Admission> {
  if (addressLimit) {
    await meterAddressRequest(addressLimit, request, context);
    return { principal: null, release: nothingToRelease };
  }
  if (ring === "public") {
    await meterPublicRequest(request, context);
    return { principal: null, release: nothingToRelease };
  }
  if (authenticatesClient) {
    await meterClientAuthentication(request, context);
    return { principal: null, release: nothingToRelease };
  }
  if (!scope) return { principal: null, release: nothingToRelease };
  let principal: Principal;
  try {
    principal = await authenticateBearer(request);
  } catch (error) {
    await meterAnonymousPartnerRequest(request, context);
    throw error;
  }
  context.logFields.project_id = principal.projectId;
  context.logFields.environment = principal.environment;
  const release = await meterPartnerRequest(principal, context, { streams });
  try {
    assertScope(principal, scope);
  } catch (error) {
    await release();
    throw error;
  }
  return { principal, release };
}
