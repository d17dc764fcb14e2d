// The beta constructs' objects as they go on the wire; their zod schemas are in ./schemas.ts.
import type { Introduction, Payout, SubAccount } from "../generated/prisma/client";

export function serializeSubAccount(subAccount: SubAccount) {
  return {
    id: subAccount.id,
    object: "sub_account" as const,
    livemode: subAccount.environment === "live",
    name: subAccount.name,
    revenue_share_bps: subAccount.revenueShareBps,
    created_at: subAccount.createdAt.toISOString(),
  };
}

export function serializeIntroduction(introduction: Introduction) {
  return {
    id: introduction.id,
    object: "introduction" as const,
    livemode: introduction.environment === "live",
    sub_account_id: introduction.subAccountId,
    application_id: introduction.applicationId,
    stage: introduction.stage,
    account_id: introduction.accountId,
    revenue_share_bps: introduction.revenueShareBps,
    principal_pence: introduction.principalPence,
    share_pence: introduction.sharePence,
    payout_id: introduction.payoutId,
    introduced_at: introduction.introducedAt.toISOString(),
    funded_at: introduction.fundedAt?.toISOString() ?? null,
  };
}

export function serializePayout(payout: Payout) {
  return {
    id: payout.id,
    object: "payout" as const,
    livemode: payout.environment === "live",
    sub_account_id: payout.subAccountId,
    period: payout.period,
    status: payout.status,
    gross_pence: Number(payout.grossPence),
    introductions: payout.introductionCount,
    created_at: payout.createdAt.toISOString(),
    paid_at: payout.paidAt?.toISOString() ?? null,
  };
}

/** A funded introduction as its payout's statement line. */
export function serializeStatementLine(introduction: Introduction) {
  return {
    introduction_id: introduction.id,
    application_id: introduction.applicationId,
    account_id: introduction.accountId!,
    funded_at: introduction.fundedAt!.toISOString(),
    principal_pence: introduction.principalPence!,
    revenue_share_bps: introduction.revenueShareBps,
    share_pence: introduction.sharePence!,
  };
}
