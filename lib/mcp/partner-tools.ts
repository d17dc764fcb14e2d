// The partner MCP server's own tools (spec 4.9, 5.2), beside the six public ones. Each is registered with the
// scope that opens it, in both spellings (docs/mcp.md has the table), so none can skip the check: a token
// without it neither sees the tool in `tools/list` nor may call it. Every read is limited to the token's project
// and environment. The `account.read` tools read personal data, and every call of theirs is audited.
import { z } from "zod";
import { balanceAsOf } from "../accounts/allocation";
import { utcDate } from "../accounts/calendar";
import { readOwnAccount } from "../accounts/queries";
import { serializeTransaction, transactionSchema } from "../accounts/serialize";
import { ACCOUNT_STATUSES, ACCOUNT_PRODUCTS, INSTALMENT_STATUSES } from "../accounts/schemas";
import { noSuchApplication } from "../applications/service";
import { db } from "../db";
import { ApiError } from "../errors";
import { REASON_MESSAGES } from "../decisions/serialize";
import type { BearerToken } from "../oauth/access-tokens";
import { requestString } from "../wire/request-string";
import { calendarDate, idOf, pence, text, timestamp } from "../wire/response-schema";
import { clock, DAY_MS } from "../clock";
import { readProjectState } from "../projects/project-state";
import { tierLimitsFor } from "../ratelimit/policies";
import { formatPounds } from "../money";
import { tenantObjectOrThrow, type Tenant } from "../tenant";
import { tenantNow } from "../tenant-clock";
import { PUBLIC_TOOLS } from "./public-tools";
import { SERVER_VERSION } from "./protocol";
import { defineTool, ToolTable, type McpTool, type ToolAccess } from "./tools";

/** Who calls the partner server: the token's project and environment, and the token itself. */
export interface PartnerCaller {
  tenant: Tenant;
  token: BearerToken;
}

const ACCESS = {
  decisioning: { scope: "mcp.read", siteScope: "decisioning:read", audited: false },
  applications: { scope: "account.read", siteScope: "applications:read", audited: true },
  customers: { scope: "account.read", siteScope: "customers:read", audited: true },
  loans: { scope: "account.read", siteScope: "loans:read", audited: true },
  ops: { scope: "ops.read", siteScope: "ops:read", audited: false },
  metrics: { scope: "owner.read", siteScope: "metrics:read", audited: false },
  config: { scope: "owner.read", siteScope: "config:read", audited: false },
} as const satisfies Record<string, ToolAccess>;

function tenantWhere({ tenant }: PartnerCaller) {
  return { projectId: tenant.projectId, environment: tenant.environment };
}

const applicationIdInput = z.strictObject({ application_id: requestString().startsWith("app_").meta({ description: "The application's id (`app_…`)." }) });
const accountIdInput = z.strictObject({ account_id: requestString().startsWith("acc_").meta({ description: "The account's id (`acc_…`)." }) });
const windowInput = z.strictObject({ days: z.int().min(1).max(90).default(30).meta({ description: "How many days back to count, 1 to 90 (30 if omitted)." }) });
const noArguments = z.strictObject({});

async function ownApplication(caller: PartnerCaller, id: string) {
  const application = await db().application.findFirst({ where: { id, projectId: caller.tenant.projectId }, include: { decision: true } });
  return tenantObjectOrThrow(caller.tenant, application, () => noSuchApplication(id));
}

function ownAccount(caller: PartnerCaller, id: string) {
  return readOwnAccount(caller.tenant, id);
}

async function today(caller: PartnerCaller): Promise<string> {
  return utcDate(await tenantNow(caller.tenant));
}

// mcp.read ------------------------------------------------------------------------------------------------------

const reasonSchema = z.strictObject({ code: text(), message: text() });
const explainDecisionOutput = z.strictObject({
  application_id: idOf("app"),
  decision_id: idOf("dec"),
  outcome: z.enum(["approved", "declined", "referred"]),
  requested_amount_pence: pence(),
  approved_amount_pence: pence(),
  apr_bps: z.int(),
  reasons: z.array(reasonSchema),
  conditions: z.array(z.strictObject({ code: text(), description: text() })),
  decided_by: text().meta({ description: "`sandbox`, `live` or `manual` (an underwriter resolved a referral)." }),
  decided_at: timestamp(),
  explanation: text(),
});

function explain(decision: { outcome: string; approvedAmountPence: number; aprBps: number; decidedBy: string }, requestedPence: number, reasons: z.output<typeof reasonSchema>[]): string {
  const engine =
    decision.decidedBy === "sandbox" ? " The sandbox engine decided it from the company number's last four digits (docs/sandbox.md)." : decision.decidedBy === "manual" ? " An underwriter decided it." : "";
  if (decision.outcome === "approved") {
    const amount = decision.approvedAmountPence === requestedPence ? `the ${formatPounds(requestedPence)} requested` : `${formatPounds(decision.approvedAmountPence)} of the ${formatPounds(requestedPence)} requested`;
    return `Approved for ${amount} at ${decision.aprBps / 100}% APR.${engine}`;
  }
  if (decision.outcome === "declined") return `Declined: ${reasons.map((reason) => reason.message).join(" ")}${engine}`;
  return `Referred to an underwriter, who will approve or decline it; nothing is needed from the applicant meanwhile.${engine}`;
}

const explainDecision = defineTool<PartnerCaller, typeof applicationIdInput, typeof explainDecisionOutput>({
  name: "explain_decision",
  alias: "ExplainDecision",
  title: "Explain a decision",
  description: "Why an application's credit decision came out as it did: the outcome, the stored reasons and conditions, and who decided.",
  input: applicationIdInput,
  output: explainDecisionOutput,
  access: ACCESS.decisioning,
  async run({ application_id }, caller) {
    const application = await ownApplication(caller, application_id);
    const decision = application.decision;
    if (!decision) throw new ApiError("not_found", { message: `Application ${application_id} has no decision yet: it is ${application.status}.` });
    const reasons = decision.reasons.map((code) => ({ code, message: REASON_MESSAGES[code] ?? code }));
    const structured = {
      application_id,
      decision_id: decision.id,
      outcome: decision.outcome,
      requested_amount_pence: application.amountPence,
      approved_amount_pence: decision.approvedAmountPence,
      apr_bps: decision.aprBps,
      reasons,
      conditions: decision.conditions as Array<{ code: string; description: string }>,
      decided_by: decision.decidedBy,
      decided_at: decision.decidedAt.toISOString(),
      explanation: explain(decision, application.amountPence, reasons),
    };
    return { text: structured.explanation, structured };
  },
});

// account.read --------------------------------------------------------------------------------------------------

const applicationStatusOutput = z.strictObject({
  id: idOf("app"),
  status: text(),
  company_number: text(),
  company_name: text(),
  product: text(),
  amount_pence: pence(),
  term_months: z.int(),
  reference: text().nullable(),
  created_at: timestamp(),
  submitted_at: timestamp().nullable(),
  expires_at: timestamp(),
  decision: z.strictObject({ id: idOf("dec"), outcome: text(), decided_at: timestamp() }).nullable(),
  account_id: idOf("acc").nullable(),
});

const applicationStatus = defineTool<PartnerCaller, typeof applicationIdInput, typeof applicationStatusOutput>({
  name: "application_status",
  alias: "ApplicationStatus",
  title: "Application status",
  description: "Where one application stands: its status, what was asked for, its decision and its account once funded.",
  input: applicationIdInput,
  output: applicationStatusOutput,
  access: ACCESS.applications,
  async run({ application_id }, caller) {
    const application = await ownApplication(caller, application_id);
    const decision = application.decision ? { id: application.decision.id, outcome: application.decision.outcome, decided_at: application.decision.decidedAt.toISOString() } : null;
    const structured = {
      id: application.id,
      status: application.status,
      company_number: application.companyNumber,
      company_name: application.companyName,
      product: application.product,
      amount_pence: application.amountPence,
      term_months: application.termMonths,
      reference: application.reference,
      created_at: application.createdAt.toISOString(),
      submitted_at: application.submittedAt?.toISOString() ?? null,
      expires_at: application.expiresAt.toISOString(),
      decision,
      account_id: application.accountId,
    };
    const decided = decision ? `, decided ${decision.outcome}` : "";
    return { text: `${application.companyName} asked for ${formatPounds(application.amountPence)} over ${application.termMonths} months: ${application.status}${decided}.`, structured };
  },
});

const customerSummaryInput = z.strictObject({ company_number: requestString().regex(/^[A-Z0-9]{8}$/).meta({ description: "The Companies House number, 8 characters." }) });
const customerSummaryOutput = z.strictObject({
  company_number: text(),
  company_name: text(),
  applications: z.array(z.strictObject({ id: idOf("app"), status: text(), amount_pence: pence(), created_at: timestamp() })),
  accounts: z.array(z.strictObject({ id: idOf("acc"), status: z.enum(ACCOUNT_STATUSES), product: z.enum(ACCOUNT_PRODUCTS), principal_outstanding_pence: pence(), arrears_pence: pence() })),
});

const SUMMARY_LIMIT = 20;

const customerSummary = defineTool<PartnerCaller, typeof customerSummaryInput, typeof customerSummaryOutput>({
  name: "customer_summary",
  alias: "CustomerSummary",
  title: "Customer summary",
  description: `One company's relationship with this project: its latest ${SUMMARY_LIMIT} applications and accounts, with what each account owes.`,
  input: customerSummaryInput,
  output: customerSummaryOutput,
  access: ACCESS.customers,
  async run({ company_number }, caller) {
    const where = { ...tenantWhere(caller), companyNumber: company_number };
    const [applications, accounts] = await Promise.all([
      db().application.findMany({ where, orderBy: { id: "desc" }, take: SUMMARY_LIMIT }),
      db().account.findMany({ where, orderBy: { id: "desc" }, take: SUMMARY_LIMIT, include: { instalments: true } }),
    ]);
    const name = applications[0]?.companyName ?? accounts[0]?.companyName;
    if (!name) throw new ApiError("not_found", { message: `This project has no application or account for company ${company_number}.` });
    const asOf = await today(caller);
    const structured = {
      company_number,
      company_name: name,
      applications: applications.map((application) => ({ id: application.id, status: application.status, amount_pence: application.amountPence, created_at: application.createdAt.toISOString() })),
      accounts: accounts.map((account) => {
        const balance = balanceAsOf(account, account.instalments, asOf);
        return { id: account.id, status: account.status, product: account.product, principal_outstanding_pence: balance.principal_outstanding_pence, arrears_pence: balance.arrears_pence };
      }),
    };
    return { text: `${name} (${company_number}): ${applications.length} application(s), ${accounts.length} account(s).`, structured };
  },
});

const balanceOutput = z.strictObject({ principal_outstanding_pence: pence(), interest_accrued_pence: pence(), arrears_pence: pence(), payoff_pence: pence() });
const instalmentOutput = z.strictObject({ number: z.int(), due_date: calendarDate(), amount_pence: pence(), paid_pence: pence(), status: z.enum(INSTALMENT_STATUSES) });

const loanStatusOutput = z.strictObject({
  account_id: idOf("acc"),
  status: z.enum(ACCOUNT_STATUSES),
  product: z.enum(ACCOUNT_PRODUCTS),
  company_name: text(),
  balance: balanceOutput,
  next_instalment: instalmentOutput.nullable(),
  forborne_until: calendarDate().nullable(),
  as_of: calendarDate(),
});

const loanStatus = defineTool<PartnerCaller, typeof accountIdInput, typeof loanStatusOutput>({
  name: "loan_status",
  alias: "LoanStatus",
  title: "Loan status",
  description: "One account today: its status, balance (payoff and arrears included) and the next instalment due.",
  input: accountIdInput,
  output: loanStatusOutput,
  access: ACCESS.loans,
  async run({ account_id }, caller) {
    const account = await ownAccount(caller, account_id);
    const asOf = await today(caller);
    const balance = balanceAsOf(account, account.instalments, asOf);
    const next = account.instalments.find((instalment) => instalment.status === "scheduled" || instalment.status === "partially_paid");
    const structured = {
      account_id,
      status: account.status,
      product: account.product,
      company_name: account.companyName,
      balance,
      next_instalment: next ? { number: next.number, due_date: next.dueDate, amount_pence: next.amountPence, paid_pence: next.paidPence, status: next.status } : null,
      forborne_until: account.status === "forborne" ? account.forborneUntil : null,
      as_of: asOf,
    };
    const due = next ? ` Next: ${formatPounds(next.amountPence - next.paidPence)} on ${next.dueDate}.` : "";
    const arrears = balance.arrears_pence > 0 ? ` ${formatPounds(balance.arrears_pence)} in arrears.` : "";
    return { text: `${account.companyName}: ${account.status}, ${formatPounds(balance.payoff_pence)} settles it today.${arrears}${due}`, structured };
  },
});

const statementInput = accountIdInput.extend({ limit: z.int().min(1).max(100).default(20).meta({ description: "How many ledger entries, newest first, 1 to 100 (20 if omitted)." }) });
const statementOutput = z.strictObject({
  account_id: idOf("acc"),
  balance: balanceOutput,
  schedule: z.array(instalmentOutput),
  transactions: z.array(transactionSchema),
  as_of: calendarDate(),
});

const loanStatement = defineTool<PartnerCaller, typeof statementInput, typeof statementOutput>({
  name: "loan_statement",
  alias: "LoanStatement",
  title: "Loan statement",
  description: "One account's statement: the balance today, the repayment schedule with what was paid, and the latest ledger entries.",
  input: statementInput,
  output: statementOutput,
  access: ACCESS.loans,
  async run({ account_id, limit }, caller) {
    const account = await ownAccount(caller, account_id);
    const asOf = await today(caller);
    const transactions = await db().ledgerTransaction.findMany({ where: { accountId: account_id }, orderBy: { id: "desc" }, take: limit });
    const structured = {
      account_id,
      balance: balanceAsOf(account, account.instalments, asOf),
      schedule: account.instalments.map((instalment) => ({ number: instalment.number, due_date: instalment.dueDate, amount_pence: instalment.amountPence, paid_pence: instalment.paidPence, status: instalment.status })),
      transactions: transactions.map(serializeTransaction),
      as_of: asOf,
    };
    const lines = structured.transactions.map((entry) => `${entry.posted_at.slice(0, 10)} ${entry.type} ${formatPounds(entry.amount_pence)}`);
    return { text: [`Statement of ${account_id} on ${asOf}: ${formatPounds(structured.balance.payoff_pence)} settles it.`, ...lines].join("\n"), structured };
  },
});

const digestOutput = z.strictObject({
  account_id: idOf("acc"),
  instalments_fallen_due: z.int(),
  paid_in_full: z.int(),
  partially_paid: z.int(),
  missed: z.int(),
  arrears_pence: pence(),
  collections_settled: z.int(),
  collections_failed: z.record(text(), z.int()).meta({ description: "Failed collections by failure code." }),
  last_settled_at: timestamp().nullable(),
  forborne: z.boolean(),
  as_of: calendarDate(),
});

const behaviouralDigest = defineTool<PartnerCaller, typeof accountIdInput, typeof digestOutput>({
  name: "behavioural_digest",
  alias: "BehaviouralDigest",
  title: "Behavioural digest",
  description: "How an account has been repaid: instalments paid, partly paid and missed, failed collections by reason, and arrears today.",
  input: accountIdInput,
  output: digestOutput,
  access: ACCESS.loans,
  async run({ account_id }, caller) {
    const account = await ownAccount(caller, account_id);
    const asOf = await today(caller);
    const collections = await db().payment.findMany({ where: { accountId: account_id, type: "collection", status: { in: ["settled", "failed"] } }, orderBy: { id: "asc" } });
    const fallenDue = account.instalments.filter((instalment) => instalment.dueDate < asOf || instalment.status !== "scheduled");
    const count = (status: string) => fallenDue.filter((instalment) => instalment.status === status).length;
    const failed: Record<string, number> = {};
    for (const payment of collections) if (payment.status === "failed") failed[payment.failureCode ?? "unknown"] = (failed[payment.failureCode ?? "unknown"] ?? 0) + 1;
    const settled = collections.filter((payment) => payment.status === "settled");
    const structured = {
      account_id,
      instalments_fallen_due: fallenDue.length,
      paid_in_full: count("paid"),
      partially_paid: count("partially_paid"),
      missed: count("missed"),
      arrears_pence: balanceAsOf(account, account.instalments, asOf).arrears_pence,
      collections_settled: settled.length,
      collections_failed: failed,
      last_settled_at: settled.at(-1)?.settledAt?.toISOString() ?? null,
      forborne: account.status === "forborne",
      as_of: asOf,
    };
    const failures = Object.values(failed).reduce((sum, n) => sum + n, 0);
    return {
      text: `${structured.paid_in_full} of ${structured.instalments_fallen_due} instalments due paid in full, ${structured.missed} missed, ${failures} failed collection(s); ${formatPounds(structured.arrears_pence)} in arrears.`,
      structured,
    };
  },
});

// ops.read ------------------------------------------------------------------------------------------------------

const queueStatusOutput = z.strictObject({
  applications_awaiting_decision: z.int().meta({ description: "Submitted, not yet decided." }),
  applications_in_review: z.int().meta({ description: "Referred to an underwriter." }),
  payments_pending: z.int(),
  identity_checks_in_review: z.int(),
  webhook_deliveries_pending: z.int(),
  webhook_endpoints_disabled: z.int(),
});

const queueStatus = defineTool<PartnerCaller, typeof noArguments, typeof queueStatusOutput>({
  name: "queue_status",
  alias: "QueueStatus",
  title: "Queue status",
  description: "What is waiting in this project's environment: applications awaiting a decision or in review, pending payments and identity reviews, webhook deliveries not yet made. Counts only.",
  input: noArguments,
  output: queueStatusOutput,
  access: ACCESS.ops,
  async run(_input, caller) {
    const where = tenantWhere(caller);
    const [awaiting, inReview, payments, identity, deliveries, disabled] = await Promise.all([
      db().application.count({ where: { ...where, status: "submitted" } }),
      db().application.count({ where: { ...where, status: "in_review" } }),
      db().payment.count({ where: { ...where, status: "pending" } }),
      db().identityCheck.count({ where: { ...where, status: "review_required" } }),
      db().webhookDelivery.count({ where: { status: "pending", endpoint: where } }),
      db().webhookEndpoint.count({ where: { ...where, status: "disabled" } }),
    ]);
    const structured = {
      applications_awaiting_decision: awaiting,
      applications_in_review: inReview,
      payments_pending: payments,
      identity_checks_in_review: identity,
      webhook_deliveries_pending: deliveries,
      webhook_endpoints_disabled: disabled,
    };
    return {
      text: `${awaiting} application(s) awaiting a decision, ${inReview} in review; ${payments} payment(s) pending; ${identity} identity check(s) in review; ${deliveries} webhook deliveries pending, ${disabled} endpoint(s) disabled.`,
      structured,
    };
  },
});

const enquiryListOutput = z.strictObject({
  since: timestamp(),
  total: z.int(),
  by_form: z.array(z.strictObject({ form: text(), dept: text(), count: z.int() })),
});

const enquiryList = defineTool<PartnerCaller, typeof windowInput, typeof enquiryListOutput>({
  name: "enquiry_list",
  alias: "EnquiryList",
  title: "Enquiry list",
  description: "Enquiries sent through the site's forms over the last days, counted by form and department. No names, addresses or messages.",
  input: windowInput,
  output: enquiryListOutput,
  access: ACCESS.ops,
  async run({ days }) {
    const since = new Date(clock.now().getTime() - days * DAY_MS);
    const groups = await db().enquiry.groupBy({ by: ["form", "dept"], where: { createdAt: { gte: since } }, _count: { _all: true }, orderBy: [{ form: "asc" }, { dept: "asc" }] });
    const byForm = groups.map((group) => ({ form: group.form, dept: group.dept, count: group._count._all }));
    const total = byForm.reduce((sum, group) => sum + group.count, 0);
    const lines = byForm.map((group) => `${group.form} (${group.dept}): ${group.count}`);
    return { text: [`${total} enquiries in the last ${days} days.`, ...lines].join("\n"), structured: { since: since.toISOString(), total, by_form: byForm } };
  },
});

// owner.read ----------------------------------------------------------------------------------------------------

const platformMetricsOutput = z.strictObject({
  since: timestamp(),
  applications_created: z.int(),
  applications_decided: z.int(),
  approved: z.int(),
  declined: z.int(),
  referred: z.int(),
  approval_rate: z.number().nullable().meta({ description: "Approved over decided, 0 to 1; null when nothing was decided." }),
  funded: z.int(),
  funded_pence: pence(),
  events_emitted: z.int(),
});

const platformMetrics = defineTool<PartnerCaller, typeof windowInput, typeof platformMetricsOutput>({
  name: "platform_metrics",
  alias: "PlatformMetrics",
  title: "Platform metrics",
  description: "This project's lending on the platform over the last days: applications, decisions by outcome, approval rate, accounts funded and events emitted.",
  input: windowInput,
  output: platformMetricsOutput,
  access: ACCESS.metrics,
  async run({ days }, caller) {
    const where = tenantWhere(caller);
    const since = new Date((await tenantNow(caller.tenant)).getTime() - days * DAY_MS);
    const [created, outcomes, funded, events] = await Promise.all([
      db().application.count({ where: { ...where, createdAt: { gte: since } } }),
      db().decision.groupBy({ by: ["outcome"], where: { ...where, decidedAt: { gte: since } }, _count: { _all: true } }),
      db().account.aggregate({ where: { ...where, createdAt: { gte: since } }, _count: { _all: true }, _sum: { principalPence: true } }),
      db().event.count({ where: { ...where, createdAt: { gte: since } } }),
    ]);
    const of = (outcome: string) => outcomes.find((group) => group.outcome === outcome)?._count._all ?? 0;
    const decided = outcomes.reduce((sum, group) => sum + group._count._all, 0);
    const structured = {
      since: since.toISOString(),
      applications_created: created,
      applications_decided: decided,
      approved: of("approved"),
      declined: of("declined"),
      referred: of("referred"),
      approval_rate: decided === 0 ? null : of("approved") / decided,
      funded: funded._count._all,
      funded_pence: funded._sum.principalPence ?? 0,
      events_emitted: events,
    };
    return {
      text: `Last ${days} days: ${created} applications, ${decided} decided (${structured.approved} approved, ${structured.declined} declined, ${structured.referred} referred), ${structured.funded} funded for ${formatPounds(structured.funded_pence)}.`,
      structured,
    };
  },
});

const opsMetricsOutput = z.strictObject({
  since: timestamp(),
  webhook_deliveries: z.strictObject({ succeeded: z.int(), failed: z.int(), abandoned: z.int(), pending: z.int(), success_rate: z.number().nullable() }),
  collections: z.strictObject({ settled: z.int(), failed: z.int() }),
  identity_checks: z.strictObject({ verified: z.int(), review_required: z.int() }),
});

const opsMetrics = defineTool<PartnerCaller, typeof windowInput, typeof opsMetricsOutput>({
  name: "ops_metrics",
  alias: "OpsMetrics",
  title: "Operations metrics",
  description: "How this project's operations ran over the last days: webhook deliveries by outcome, collections settled and failed, identity checks by result.",
  input: windowInput,
  output: opsMetricsOutput,
  access: ACCESS.metrics,
  async run({ days }, caller) {
    const where = tenantWhere(caller);
    const since = new Date(clock.now().getTime() - days * DAY_MS);
    const tenantSince = new Date((await tenantNow(caller.tenant)).getTime() - days * DAY_MS);
    const [deliveries, collections, checks] = await Promise.all([
      db().webhookDelivery.groupBy({ by: ["status"], where: { createdAt: { gte: since }, endpoint: where }, _count: { _all: true } }),
      db().payment.groupBy({ by: ["status"], where: { ...where, type: "collection", createdAt: { gte: tenantSince } }, _count: { _all: true } }),
      db().identityCheck.groupBy({ by: ["status"], where: { ...where, createdAt: { gte: tenantSince } }, _count: { _all: true } }),
    ]);
    const countOf = (groups: Array<{ status: string; _count: { _all: number } }>, status: string) => groups.find((group) => group.status === status)?._count._all ?? 0;
    const succeeded = countOf(deliveries, "succeeded");
    const finished = succeeded + countOf(deliveries, "failed") + countOf(deliveries, "abandoned");
    const structured = {
      since: since.toISOString(),
      webhook_deliveries: {
        succeeded,
        failed: countOf(deliveries, "failed"),
        abandoned: countOf(deliveries, "abandoned"),
        pending: countOf(deliveries, "pending"),
        success_rate: finished === 0 ? null : succeeded / finished,
      },
      collections: { settled: countOf(collections, "settled"), failed: countOf(collections, "failed") },
      identity_checks: { verified: countOf(checks, "verified"), review_required: countOf(checks, "review_required") },
    };
    return {
      text: `Last ${days} days: ${succeeded} webhook deliveries succeeded of ${finished} finished; ${structured.collections.settled} collections settled, ${structured.collections.failed} failed; ${structured.identity_checks.verified} identity checks verified, ${structured.identity_checks.review_required} in review.`,
      structured,
    };
  },
});

const portfolioOutput = z.strictObject({
  accounts: z.int(),
  by_status: z.array(z.strictObject({ status: z.enum(ACCOUNT_STATUSES), accounts: z.int(), principal_outstanding_pence: pence() })),
  by_product: z.array(z.strictObject({ product: z.enum(ACCOUNT_PRODUCTS), accounts: z.int(), principal_pence: pence(), principal_outstanding_pence: pence() })),
  arrears_pence: pence(),
});

const portfolioOverview = defineTool<PartnerCaller, typeof noArguments, typeof portfolioOutput>({
  name: "portfolio_overview",
  alias: "PortfolioOverview",
  title: "Portfolio overview",
  description: "This project's book: accounts by status and product, principal lent and outstanding, and arrears.",
  input: noArguments,
  output: portfolioOutput,
  access: ACCESS.metrics,
  async run(_input, caller) {
    const where = tenantWhere(caller);
    const [byStatus, byProduct, arrears] = await Promise.all([
      db().account.groupBy({ by: ["status"], where, _count: { _all: true }, _sum: { principalOutstandingPence: true }, orderBy: { status: "asc" } }),
      db().account.groupBy({ by: ["product"], where, _count: { _all: true }, _sum: { principalPence: true, principalOutstandingPence: true }, orderBy: { product: "asc" } }),
      db().instalment.findMany({ where: { account: where, status: { in: ["missed", "partially_paid"] } }, select: { amountPence: true, paidPence: true } }),
    ]);
    const structured = {
      accounts: byStatus.reduce((sum, group) => sum + group._count._all, 0),
      by_status: byStatus.map((group) => ({ status: group.status, accounts: group._count._all, principal_outstanding_pence: group._sum.principalOutstandingPence ?? 0 })),
      by_product: byProduct.map((group) => ({
        product: group.product,
        accounts: group._count._all,
        principal_pence: group._sum.principalPence ?? 0,
        principal_outstanding_pence: group._sum.principalOutstandingPence ?? 0,
      })),
      arrears_pence: arrears.reduce((sum, instalment) => sum + instalment.amountPence - instalment.paidPence, 0),
    };
    const outstanding = structured.by_status.reduce((sum, group) => sum + group.principal_outstanding_pence, 0);
    return { text: `${structured.accounts} accounts, ${formatPounds(outstanding)} principal outstanding, ${formatPounds(structured.arrears_pence)} in arrears.`, structured };
  },
});

const configSnapshotOutput = z.strictObject({
  project: z.strictObject({ id: idOf("proj"), name: text(), tier: text(), status: text(), scopes: z.array(text()), capabilities: z.array(text()) }),
  environment: z.enum(["sandbox", "live"]),
  rate_limit: z.strictObject({ per_second: z.number(), burst: z.int(), concurrent: z.int() }),
  webhook_endpoints: z.array(z.strictObject({ id: idOf("whe"), url: text(), status: text(), enabled_events: z.array(text()) })),
  sandbox_clock_offset_days: z.int(),
  mcp_server_version: text(),
});

const configSnapshot = defineTool<PartnerCaller, typeof noArguments, typeof configSnapshotOutput>({
  name: "config_snapshot",
  alias: "ConfigSnapshot",
  title: "Configuration snapshot",
  description: "How this project is set up in this environment: tier, scopes, capabilities, rate limit, webhook endpoints and the sandbox test clock. No secrets.",
  input: noArguments,
  output: configSnapshotOutput,
  access: ACCESS.config,
  async run(_input, caller) {
    const { tenant } = caller;
    const [project, endpoints, state] = await Promise.all([
      db().project.findUniqueOrThrow({ where: { id: tenant.projectId } }),
      db().webhookEndpoint.findMany({ where: tenantWhere(caller), orderBy: { id: "asc" } }),
      readProjectState(tenant.projectId),
    ]);
    const limits = tierLimitsFor(state!.limitSettings, tenant.environment);
    const structured = {
      project: { id: project.id, name: project.name, tier: project.tier, status: project.status, scopes: project.scopes, capabilities: project.capabilities },
      environment: tenant.environment,
      rate_limit: { per_second: limits.ratePerSecond, burst: limits.burst, concurrent: limits.concurrent },
      webhook_endpoints: endpoints.map((endpoint) => ({ id: endpoint.id, url: endpoint.url, status: endpoint.status, enabled_events: endpoint.enabledEvents })),
      sandbox_clock_offset_days: tenant.environment === "sandbox" ? state!.sandboxClockOffsetDays : 0,
      mcp_server_version: SERVER_VERSION,
    };
    return {
      text: `${project.name} (${project.tier}, ${tenant.environment}): ${project.scopes.length} scopes, ${endpoints.length} webhook endpoint(s), ${limits.ratePerSecond} requests a second.`,
      structured,
    };
  },
});

const PARTNER_TOOLS: readonly McpTool<PartnerCaller>[] = [
  explainDecision,
  applicationStatus,
  customerSummary,
  loanStatus,
  loanStatement,
  behaviouralDigest,
  queueStatus,
  enquiryList,
  platformMetrics,
  opsMetrics,
  portfolioOverview,
  configSnapshot,
];

let table: ToolTable<PartnerCaller> | undefined;

/** The public tools and the partner tools, built once per process. */
export function partnerToolTable(): ToolTable<PartnerCaller> {
  table ??= new ToolTable<PartnerCaller>([...PUBLIC_TOOLS, ...PARTNER_TOOLS]);
  return table;
}
