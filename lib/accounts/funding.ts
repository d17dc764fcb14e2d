// Funding: the borrower accepts the offer and the servicing account opens (docs/accounts.md, "Funding"). The
// one service both the sandbox test helper and the hosted journey's offer acceptance call. In one transaction:
// the application becomes `funded` with its `account_id`, the account opens `performing` with its schedule
// and direct-debit mandate, and a term loan's principal is disbursed (a Flex facility draws nothing yet).
// Events, in order: offer.accepted, application.funded, account.activated, then for a term loan
// payment.created and (in the sandbox, where it settles at once) payment.settled.
import type { Account, Application, Decision, Prisma } from "../generated/prisma/client";
import { db, inTransaction } from "../db";
import { ApiError, notFound } from "../errors";
import { recordEvents } from "../events/events";
import { newId } from "../ids";
import { lockApplication, transitionApplication } from "../applications/transition";
import { serializeApplication } from "../applications/serialize";
import { offerEventObject } from "../decisions/serialize";
import { createPayment } from "../payments/create";
import { disbursementOutcome } from "../payments/rails";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import { utcDate } from "./calendar";
import { periodEnd } from "./interest";
import { renderAccount, settleAccountPayment } from "./ledger";
import { termLoanSchedule } from "./schedule";
import { fundIntroduction } from "../revenue-share/introductions";

const MANDATE_PREFIX = "mandate_";

async function openAccount(transaction: Prisma.TransactionClient, application: Application, decision: Decision, accountId: string, now: Date): Promise<Account> {
  const openedOn = utcDate(now);
  const isFlex = application.product === "flex";
  const principalPence = decision.approvedAmountPence;
  const account = await transaction.account.create({
    data: {
      id: accountId,
      projectId: application.projectId,
      environment: application.environment,
      applicationId: application.id,
      status: "performing",
      product: isFlex ? "flex_facility" : "business_term_loan",
      companyNumber: application.companyNumber,
      companyName: application.companyName,
      principalPence: isFlex ? 0 : principalPence,
      creditLimitPence: isFlex ? principalPence : null,
      termMonths: application.termMonths,
      aprBps: decision.aprBps,
      subAccountId: application.subAccountId,
      reference: application.reference,
      metadata: application.metadata as Prisma.InputJsonValue,
      openedOn,
      principalOutstandingPence: isFlex ? 0 : principalPence,
      interestAccruedPence: 0,
      interestAccruedThrough: openedOn,
      nextDueOn: periodEnd(openedOn, 1),
      mandateId: `${MANDATE_PREFIX}${accountId.slice("acc_".length)}`,
      createdAt: now,
      updatedAt: now,
    },
  });
  if (!isFlex) {
    await transaction.instalment.createMany({
      data: termLoanSchedule({ principalPence, aprBps: decision.aprBps, termMonths: application.termMonths, openedOn }).map((instalment) => ({
        accountId,
        ...instalment,
      })),
    });
  }
  await recordEvents(transaction, [
    { projectId: account.projectId, environment: account.environment, type: "account.activated", object: await renderAccount(transaction, account, openedOn), createdAt: now },
  ]);
  return account;
}

export interface FundApplicationOptions {
  tenant: Tenant;
  /** The time on the tenant's clock the acceptance, the account and its disbursement carry. */
  now: Date;
  applicationId: string;
  /** The name the borrower typed to sign the offer (the hosted journey, the white-label accept); none from the test helper. */
  signatoryName?: string;
  /** The caller's transaction, for its writes to commit with the funding. */
  transaction?: Prisma.TransactionClient;
}

/**
 * Funds an approved application (404 when it is not the project's, 409 `conflict` unless `approved`), recording
 * the offer's acceptance on its decision. Returns the funded application, its account and, for a term loan, the
 * disbursement.
 */
export async function fundApplication(options: FundApplicationOptions) {
  return inTransaction(options.transaction ?? db(), async (transaction) => {
    const locked = await lockApplication(transaction, options.applicationId);
    const application = tenantObjectOrThrow(options.tenant, locked, () => notFound("application", options.applicationId));
    let decision = await transaction.decision.findUnique({ where: { applicationId: application.id } });
    if (application.status === "approved" && (!decision || decision.outcome !== "approved")) {
      throw new ApiError("conflict", { message: "The application has no approved offer to accept." });
    }
    const { now } = options;
    if (decision && application.status === "approved") {
      decision = await transaction.decision.update({ where: { id: decision.id }, data: { acceptedAt: now, signatoryName: options.signatoryName ?? null } });
    }
    const accountId = newId("account");
    const funded = await transitionApplication(transaction, application, "fund", {
      now,
      changes: { fundedAt: now, accountId },
      eventObjects: decision ? { "offer.accepted": offerEventObject(decision, application) } : {},
    });
    let account = await openAccount(transaction, funded, decision!, accountId, now);
    // What the introduction (beta) brought in: the principal lent, or for a Flex facility the limit made available.
    if (funded.subAccountId !== null) await fundIntroduction(transaction, { applicationId: funded.id, accountId, principalPence: account.creditLimitPence ?? account.principalPence, now });
    let disbursement = null;
    if (account.product === "business_term_loan") {
      disbursement = await createPayment(
        transaction,
        { projectId: account.projectId, environment: account.environment, accountId, type: "disbursement", amountPence: account.principalPence, reference: account.reference, status: "pending" },
        now,
      );
      if (disbursementOutcome(account.environment).kind === "settled") {
        ({ account, payment: disbursement } = await settleAccountPayment(transaction, account, disbursement, { now, asOf: account.openedOn }));
      }
    }
    return { application: serializeApplication(funded), account, disbursement };
  });
}
