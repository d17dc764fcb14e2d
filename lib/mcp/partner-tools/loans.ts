// The loan tools (`account.read`, audited): one account today, its statement, and how it has been repaid. The
// account is read on the fast lane (readOwnAccount): the loan-status call is a measured hot path.
import { z } from "zod";
import { balanceAsOf } from "../../accounts/allocation";
import { listLatestTransactions, readOwnAccount } from "../../accounts/queries";
import { ACCOUNT_PRODUCTS, ACCOUNT_STATUSES, INSTALMENT_STATUSES } from "../../accounts/schemas";
import { transactionSchema } from "../../accounts/schemas";
import { serializeTransaction } from "../../accounts/serialize";
import { utcDate } from "../../accounts/calendar";
import { calendarDate, idOf, pence, text, timestamp } from "../../wire/response-schema";
import { formatPounds } from "../../money";
import { listFinishedCollections } from "../../payments/queries";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { accountIdInput } from "./arguments";

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
  async run({ account_id }, { tenant, now }) {
    const account = await readOwnAccount(tenant, account_id);
    const asOf = utcDate(now);
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
  async run({ account_id, limit }, { tenant, now }) {
    const account = await readOwnAccount(tenant, account_id);
    const asOf = utcDate(now);
    const transactions = await listLatestTransactions(tenant, { accountId: account_id, limit });
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
  async run({ account_id }, { tenant, now }) {
    const account = await readOwnAccount(tenant, account_id);
    const asOf = utcDate(now);
    const collections = await listFinishedCollections(tenant, account_id);
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

export const LOAN_TOOLS = [loanStatus, loanStatement, behaviouralDigest];
