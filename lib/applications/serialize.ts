import { config } from "../env";
import { Prisma, type Application } from "../generated/prisma/client";
import { jsonValueSql, renderedObjectSql } from "../wire/rendered-json";

/** The columns the application object is made from. */
export type ApplicationView = Pick<
  Application,
  | "id" | "environment" | "status" | "companyNumber" | "companyName" | "amountPence" | "termMonths" | "purpose" | "reference"
  | "handoffToken" | "expiresAt" | "createdAt" | "submittedAt" | "withdrawnAt" | "withdrawalReason" | "fundedAt" | "decisionId"
  | "introductionId" | "subAccountId" | "metadata" | "product" | "accountId"
>;

/** The hosted journey's address for an application: the unguessable token, never the id. */
export function handoffUrl(handoffToken: string): string {
  return `${config().APPLY_URL}/apply/${handoffToken}`;
}

/**
 * The application object (spec 2.2). `applicant` and `redirect_uri` are input only (they pre-fill and close the
 * hosted journey) and are not echoed; `decision` is the decision's id once decisioning has run, `account_id` the
 * servicing account's once funded.
 */
export function serializeApplication(application: ApplicationView) {
  return {
    id: application.id,
    object: "application" as const,
    livemode: application.environment === "live",
    status: application.status,
    business: { company_number: application.companyNumber, name: application.companyName },
    amount_pence: application.amountPence,
    term_months: application.termMonths,
    product: application.product,
    purpose: application.purpose,
    reference: application.reference,
    handoff_url: handoffUrl(application.handoffToken),
    expires_at: application.expiresAt.toISOString(),
    created_at: application.createdAt.toISOString(),
    submitted_at: application.submittedAt?.toISOString() ?? null,
    withdrawn_at: application.withdrawnAt?.toISOString() ?? null,
    withdrawal_reason: application.withdrawalReason,
    funded_at: application.fundedAt?.toISOString() ?? null,
    decision: application.decisionId,
    account_id: application.accountId,
    introduction_id: application.introductionId,
    sub_account_id: application.subAccountId,
    metadata: application.metadata as Record<string, string>,
  };
}

export type ApplicationObject = ReturnType<typeof serializeApplication>;


/**
 * The application object as PostgreSQL renders it, for the hottest reads (the point read and the list), over
 * a row of `applications`: the object serializeApplication returns, field for field and in the same order
 * (tests/database/applications/serialize-sql.test.ts holds the two equal), as compact JSON text. A page of a
 * hundred then goes from the database to the wire without being parsed, re-shaped and serialised again in
 * JavaScript, where each of those steps cost more than the query (docs/performance.md).
 */
export function applicationJsonSql(): Prisma.Sql {
  const { string, literal, timestamp, json } = jsonValueSql;
  return renderedObjectSql([
    ["id", string("id")],
    ["object", Prisma.sql`'"application"'`],
    ["livemode", literal("environment = 'live'")],
    ["status", string("status")],
    ["business", renderedObjectSql([["company_number", string("company_number")], ["name", string("company_name")]])],
    ["amount_pence", literal("amount_pence")],
    ["term_months", literal("term_months")],
    ["product", string("product")],
    ["purpose", string("purpose")],
    ["reference", string("reference")],
    ["handoff_url", json(Prisma.sql`to_json(${handoffUrl("")}::text || handoff_token)::text`)],
    ["expires_at", timestamp("expires_at")],
    ["created_at", timestamp("created_at")],
    ["submitted_at", timestamp("submitted_at")],
    ["withdrawn_at", timestamp("withdrawn_at")],
    ["withdrawal_reason", string("withdrawal_reason")],
    ["funded_at", timestamp("funded_at")],
    ["decision", string("decision_id")],
    ["account_id", string("account_id")],
    ["introduction_id", string("introduction_id")],
    ["sub_account_id", string("sub_account_id")],
    ["metadata", json(Prisma.sql`metadata::text`)],
  ]);
}
