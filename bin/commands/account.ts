import { z } from "zod";
import { accountTenant, agreeForbearance, describeAccount, writeOffAccount } from "../../lib/accounts/service";
import type { Tenant } from "../../lib/tenant";
import { tenantNow } from "../../lib/tenant-clock";
import { parseFlags, type Command } from "../cli-kit";

type Described = NonNullable<Awaited<ReturnType<typeof describeAccount>>>;

/** The account's own project and environment, and its time now: the operator acts for whichever tenant holds it. */
async function accountClockOrThrow(id: string): Promise<{ tenant: Tenant; now: Date }> {
  const tenant = await accountTenant(id);
  if (!tenant) throw new Error(`No such account: ${id}`);
  return { tenant, now: await tenantNow(tenant) };
}

async function describeOrThrow(id: string, now: Date): Promise<Described> {
  const described = await describeAccount(id, now);
  if (!described) throw new Error(`No such account: ${id}`);
  return described;
}

function describeText({ project_id, account, payments }: Described): string {
  const { balance } = account;
  const terms =
    account.product === "flex_facility"
      ? `Flex facility, limit ${account.credit_limit_pence} pence (${account.available_pence} available), ${account.term_months} months at ${account.apr_bps} bps APR`
      : `term loan of ${account.principal_pence} pence over ${account.term_months} months at ${account.apr_bps} bps APR`;
  return [
    `${account.id}  ${account.status}${account.forborne_until ? ` until ${account.forborne_until}` : ""}  (${account.livemode ? "live" : "sandbox"}, project ${project_id})`,
    `  product      ${terms}`,
    `  borrower     ${account.borrower.company_name} (${account.borrower.company_number})`,
    `  application  ${account.application_id}`,
    `  reference    ${account.reference ?? "-"}`,
    `  balance      principal ${balance.principal_outstanding_pence}, interest ${balance.interest_accrued_pence}, arrears ${balance.arrears_pence}, payoff ${balance.payoff_pence} (pence)`,
    "  schedule",
    ...(account.schedule.length === 0
      ? ["    (none yet)"]
      : account.schedule.map((item) => `    ${String(item.number).padStart(2)}  ${item.due_date}  ${item.amount_pence} pence (principal ${item.principal_pence}, interest ${item.interest_pence})  ${item.status}`)),
    "  payments (latest first)",
    ...(payments.length === 0
      ? ["    (none)"]
      : payments.map((payment) => `    ${payment.id}  ${payment.type}  ${payment.status}${payment.failure_code ? ` (${payment.failure_code})` : ""}  ${payment.amount_pence} pence  ${payment.created_at}`)),
  ].join("\n");
}

export const accountShow: Command = {
  words: ["account", "show"],
  synopsis: "acc_... [--json]",
  description: "Show an account with its balance today, its repayment schedule and its latest payments.",
  options: {},
  positionals: 1,
  async run({ positionals, database, print }) {
    await database();
    const id = positionals[0]!;
    const { now } = await accountClockOrThrow(id);
    const described = await describeOrThrow(id, now);
    print(describeText(described), described);
  },
};

const forbearFlags = z.object({
  until: z
    .string({ error: "is required: the day the arrangement ends (YYYY-MM-DD)" })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD")
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), "must be a real date"),
});

export const accountForbear: Command = {
  words: ["account", "forbear"],
  synopsis: "acc_... --until YYYY-MM-DD [--json]",
  description: "Agree a hardship arrangement: the account is forborne until the day given, when servicing ends it (collections go on meanwhile).",
  options: { until: { type: "string", value: "YYYY-MM-DD", description: "The day the arrangement ends (after today)." } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const id = positionals[0]!;
    const { until } = parseFlags(forbearFlags, values);
    await database();
    const { tenant, now } = await accountClockOrThrow(id);
    await agreeForbearance({ tenant, now, id, until });
    const described = await describeOrThrow(id, now);
    print(`Account ${id} is forborne until ${until}.`, described.account);
  },
};

export const accountWriteOff: Command = {
  words: ["account", "write-off"],
  synopsis: "acc_... [--json]",
  description: "Write the account off: what is owed leaves the balance through an adjustment, and the account is closed.",
  options: {},
  positionals: 1,
  async run({ positionals, database, print }) {
    const id = positionals[0]!;
    await database();
    const { tenant, now } = await accountClockOrThrow(id);
    await writeOffAccount({ tenant, now, id });
    const described = await describeOrThrow(id, now);
    print(`Account ${id} is written off and closed.`, described.account);
  },
};
