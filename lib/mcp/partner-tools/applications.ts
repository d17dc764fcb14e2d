// The application and customer tools (`account.read`, audited): where one application stands, and one company's
// relationship with the project.
import { z } from "zod";
import { balanceAsOf } from "../../accounts/allocation";
import { listCompanyAccounts } from "../../accounts/queries";
import { ACCOUNT_PRODUCTS, ACCOUNT_STATUSES } from "../../accounts/schemas";
import { utcDate } from "../../accounts/calendar";
import { listCompanyApplications, readOwnApplicationWithDecision } from "../../applications/queries";
import { notFound } from "../../errors";
import { requestString } from "../../wire/request-string";
import { idOf, pence, text, timestamp } from "../../wire/response-schema";
import { formatPounds } from "../../money";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { applicationIdInput } from "./arguments";

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
  async run({ application_id }, { tenant }) {
    const application = await readOwnApplicationWithDecision(tenant, application_id);
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
  async run({ company_number }, { tenant, now }) {
    const company = { companyNumber: company_number, limit: SUMMARY_LIMIT };
    const [applications, accounts] = await Promise.all([listCompanyApplications(tenant, company), listCompanyAccounts(tenant, company)]);
    const name = applications[0]?.companyName ?? accounts[0]?.companyName;
    if (!name) throw notFound("customer", company_number);
    const asOf = utcDate(now);
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

export const APPLICATION_TOOLS = [applicationStatus, customerSummary];
