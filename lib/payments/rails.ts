// Where a payment's outcome comes from. In the sandbox the outcome is simulated at once, by the borrower's
// company number (docs/sandbox.md, "Payments"); in live no payment provider is connected yet, so a live
// payment stays `pending` until one is, and reports its outcome through the same moves.
import type { PaymentFailureCode } from "./schemas";
import type { TenantEnvironment } from "../tenant";

export type PaymentOutcome =
  | { kind: "settled" }
  | { kind: "failed"; failureCode: PaymentFailureCode; revokesMandate: boolean }
  | { kind: "pending" };

/** The company-number endings whose sandbox collections fail. */
export const SANDBOX_INSUFFICIENT_FUNDS_SUFFIX = "0008";
export const SANDBOX_MANDATE_REVOKED_SUFFIX = "0009";

/** A disbursement: the sandbox pays out at once. */
export function disbursementOutcome(environment: TenantEnvironment): PaymentOutcome {
  return environment === "sandbox" ? { kind: "settled" } : { kind: "pending" };
}

/**
 * A direct-debit collection. Sandbox: a mandate already revoked fails every collection `mandate_cancelled`; a
 * company number ending 0009 revokes its mandate before the first collection (which then fails
 * `mandate_cancelled`); one ending 0008 fails `insufficient_funds`; anything else settles.
 */
export function collectionOutcome(options: { environment: TenantEnvironment; companyNumber: string; mandateStatus: "active" | "revoked" }): PaymentOutcome {
  if (options.mandateStatus === "revoked") return { kind: "failed", failureCode: "mandate_cancelled", revokesMandate: false };
  if (options.environment === "live") return { kind: "pending" };
  if (options.companyNumber.endsWith(SANDBOX_MANDATE_REVOKED_SUFFIX)) return { kind: "failed", failureCode: "mandate_cancelled", revokesMandate: true };
  if (options.companyNumber.endsWith(SANDBOX_INSUFFICIENT_FUNDS_SUFFIX)) return { kind: "failed", failureCode: "insufficient_funds", revokesMandate: false };
  return { kind: "settled" };
}
