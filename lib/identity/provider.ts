// The identity provider interface: who checks that the people behind an application are who they say they are
// (spec 4.4, "a KYC/AML check through an identity provider"). Two implement it: the sandbox rules
// (sandbox-provider.ts) and a provider over HTTP (http-provider.ts); choose-provider.ts picks one per environment.
import type { IdentityPerson, IdentityResult } from "./schemas";

export interface IdentityCheckRequest {
  /** Our id for the check (`idv_...`): a provider may deduplicate a repeated request on it. */
  reference: string;
  /** The company the people direct or control. */
  companyNumber: string;
  people: readonly IdentityPerson[];
}

export interface IdentityCheckAnswer {
  /** The provider's own id for the check, when it gives one. */
  providerReference: string | null;
  /** One result per person, in the order they were sent. */
  results: IdentityResult[];
}

export interface IdentityProvider {
  /** Stored with each check: which provider answered it. */
  readonly name: "sandbox" | "http";
  /** Throws `IdentityProviderUnavailableError` when the provider gives no usable answer; never for a person. */
  check(request: IdentityCheckRequest): Promise<IdentityCheckAnswer>;
}

/**
 * The provider could not answer (unreachable, too slow, an unexpected status or a body we do not understand).
 * Not a fact about anyone: the check can be retried. The message is for logs only.
 */
export class IdentityProviderUnavailableError extends Error {
  override name = "IdentityProviderUnavailableError";
  /** The HTTP status the provider answered with, when it answered at all. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}
