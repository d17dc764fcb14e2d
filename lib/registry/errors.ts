/**
 * The registry could not answer (unreachable, an unexpected status, or a body we do not understand). Not a fact
 * about the company: callers should retry later rather than turn the applicant away. The message is for logs only.
 */
export class RegistryUnavailableError extends Error {
  override name = "RegistryUnavailableError";
  /** The HTTP status the registry answered with, when it answered at all. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }
}

/** The platform's budget of registry calls, or the caller's share of it, is spent for now (lib/registry/quota.ts). */
export class RegistryBudgetSpentError extends RegistryUnavailableError {
  override name = "RegistryBudgetSpentError";

  constructor(readonly retryAfterMs: number) {
    super("The registry call budget is spent");
  }
}
