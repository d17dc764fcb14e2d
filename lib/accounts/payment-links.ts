// Payment links (docs/payments.md, "Payment links"): a partner provisions a link for an amount up to an
// account's payoff; the payer opens its page on the hosted site ({APPLY_URL}/pay/<token>), picks a bank and
// pays. In the sandbox the page is a simulated bank with Approve and Fail. The page's address carries an
// unguessable token, never the payment id, and its form a second token bound to the payment (CSRF).
import { timingSafeEqual } from "node:crypto";
import { balanceAsOf } from "./allocation";
import { utcDate } from "./calendar";
import { tenantNow } from "../tenant-clock";
import { config } from "../env";
import { db } from "../db";
import { ApiError, notFound } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { randomToken } from "../ids";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import type { CreatePaymentLinkInput } from "../payments/schemas";
import { answerPayment } from "./payment-settlement";
import { serializePayment } from "../payments/serialize";
import { type PaymentFailureCode } from "../payments/schemas";
import { createPayment } from "../payments/create";

/** How long a link takes payment: a day, long enough to reach a borrower by email and short enough to go stale safely. */
export const PAYMENT_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TOKEN_LENGTH = 32;
const OPEN_STATUSES = new Set(["performing", "in_arrears", "forborne"]);

/**
 * Provisions a payment link on one of the caller's accounts (another project's is 404, the other environment's
 * 401 `environment_mismatch`): 409 `conflict` when the account is settled or closed, 422 on `amount_pence`
 * above its payoff today. No open-banking provider is connected to
 * live yet, so a live link is 503 `service_unavailable`.
 */
export async function createPaymentLink({ tenant, now, input, transaction }: { tenant: Tenant; now: Date; input: CreatePaymentLinkInput; transaction: Prisma.TransactionClient }) {
  const found = await transaction.account.findFirst({ where: { id: input.account_id, projectId: tenant.projectId }, include: { instalments: true } });
  const account = tenantObjectOrThrow(tenant, found, () => notFound("account", input.account_id));
  if (!OPEN_STATUSES.has(account.status)) {
    throw new ApiError("conflict", { message: `An account that is ${account.status} takes no payments: nothing is owed on it.` });
  }
  const payoff = balanceAsOf(account, account.instalments, utcDate(now)).payoff_pence;
  if (input.amount_pence > payoff) {
    throw new ApiError("validation_failed", {
      detail: [{ field: "amount_pence", reason: "exceeds_payoff", message: `At most the account's payoff today, ${payoff} pence.` }],
    });
  }
  if (tenant.environment === "live") {
    throw new ApiError("service_unavailable", { message: "Payment links need an open-banking provider, and none is connected to live yet; use the sandbox." });
  }
  const payment = await createPayment(
    transaction,
    {
      projectId: tenant.projectId,
      environment: tenant.environment,
      accountId: account.id,
      type: "payment_link",
      amountPence: input.amount_pence,
      reference: input.reference ?? account.reference,
      status: "provisioned",
      link: {
        linkToken: randomToken(TOKEN_LENGTH),
        formToken: randomToken(TOKEN_LENGTH),
        expiresAt: new Date(now.getTime() + PAYMENT_LINK_LIFETIME_MS),
        redirectUri: input.redirect_uri ?? null,
      },
      metadata: input.metadata,
    },
    now,
  );
  return serializePayment(payment);
}

/** What the payer's page shows, by the state of the link. */
export type PaymentPageState = "payable" | "expired" | "pending" | "settled" | "failed";

export interface PaymentPage {
  paymentId: string;
  state: PaymentPageState;
  amountPence: number;
  borrowerName: string;
  reference: string | null;
  sandbox: boolean;
  expiresAt: Date;
  settledAt: Date | null;
  failureCode: PaymentFailureCode | null;
  /** The form's token, while the link can be paid. */
  formToken: string | null;
  /** The partner's `redirect_uri` with `payment_id` appended, once the payer has nothing left to do here. */
  returnUrl: string | null;
}

function returnUrlOf(redirectUri: string | null, paymentId: string): string | null {
  if (!redirectUri) return null;
  const url = new URL(redirectUri);
  url.searchParams.set("payment_id", paymentId);
  return url.toString();
}

/** The page of the link with this token, or null when there is none (a mistyped or made-up address). */
export async function paymentPageFor(linkToken: string): Promise<PaymentPage | null> {
  if (!/^[0-9A-Za-z]{32}$/.test(linkToken)) return null;
  const payment = await db().payment.findUnique({ where: { linkToken }, include: { account: true } });
  if (!payment || !payment.account || !payment.expiresAt) return null;
  const expired = (await tenantNow(payment)).getTime() >= payment.expiresAt.getTime();
  const state: PaymentPageState = payment.status === "provisioned" ? (expired ? "expired" : "payable") : payment.status;
  return {
    paymentId: payment.id,
    state,
    amountPence: payment.amountPence,
    borrowerName: payment.account.companyName,
    reference: payment.reference,
    sandbox: payment.environment === "sandbox",
    expiresAt: payment.expiresAt,
    settledAt: payment.settledAt,
    failureCode: payment.failureCode,
    formToken: state === "payable" ? payment.formToken : null,
    returnUrl: state === "payable" || state === "pending" ? null : returnUrlOf(payment.redirectUri, payment.id),
  };
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A browser's form post must come from our own pages: when it says where it comes from (`Origin`, sent by
 * every current browser on a POST), that must be the hosted site or this host. The form token is the check that
 * does not depend on the browser.
 */
export function assertFormOrigin(origin: string | null, host: string | null): void {
  if (origin === null) return;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    throw new ApiError("csrf_token_invalid");
  }
  if (from.origin === new URL(config().APPLY_URL).origin || (host !== null && from.host === host)) return;
  throw new ApiError("csrf_token_invalid");
}

/**
 * The sandbox bank's answer from the payment page: `approve` settles the payment as the bank would, `fail` fails
 * it `bank_rejected`. The form token must be the payment's (403 `csrf_token_invalid`). A link that is no longer
 * payable (expired, or answered already, say by a second click) is left as it is: the page shows where it stands.
 */
export async function answerAtSandboxBank(options: { linkToken: string; formToken: string; decision: "approve" | "fail" }): Promise<void> {
  await db().$transaction(async (transaction) => {
    const payment = await transaction.payment.findUnique({ where: { linkToken: options.linkToken } });
    if (!payment || !payment.formToken || payment.environment !== "sandbox") throw notFound("payment link");
    if (!sameToken(payment.formToken, options.formToken)) throw new ApiError("csrf_token_invalid");
    if (payment.status !== "provisioned" || !payment.expiresAt) return;
    // The link's token names its tenant only once the payment is read: the one read of the time for this answer.
    const now = await tenantNow(payment);
    if (now.getTime() >= payment.expiresAt.getTime()) return;
    try {
      await answerPayment(transaction, payment, options.decision === "approve" ? { outcome: "settled" } : { outcome: "failed", failureCode: "bank_rejected" }, now);
    } catch (error) {
      // Another request answered it first (two clicks at once): that answer stands.
      if (!(error instanceof ApiError && error.code === "conflict")) throw error;
    }
  });
}
