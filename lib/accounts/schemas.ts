// The values of an account's enums, the schemas of the account, its balance and its ledger transactions as they
// go on the wire (lib/accounts/serialize.ts), and the request schemas of the accounts API (spec 4.3).
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { listQuerySchema } from "../wire/pagination";
import { calendarDate, idOf, listEnvelopeSchema, metadataObject, pence, text, timestamp } from "../wire/response-schema";
import { MAX_AMOUNT_PENCE } from "../decisions/pricing-table";
import { subAccountIdSchema } from "../revenue-share/schemas";

export const ACCOUNT_STATUSES = ["performing", "in_arrears", "forborne", "settled", "closed"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const ACCOUNT_PRODUCTS = ["business_term_loan", "flex_facility"] as const;
export type AccountProduct = (typeof ACCOUNT_PRODUCTS)[number];

export const INSTALMENT_STATUSES = ["scheduled", "paid", "missed", "partially_paid"] as const;
export type InstalmentStatus = (typeof INSTALMENT_STATUSES)[number];

export const TRANSACTION_TYPES = ["collection", "drawdown", "refund", "adjustment"] as const;

export const balanceSchema = z
  .strictObject({
    principal_outstanding_pence: pence(),
    interest_accrued_pence: pence(),
    arrears_pence: pence(),
    payoff_pence: pence().meta({ description: "What settles the account in full today: principal outstanding, interest accrued and any fees." }),
  })
  .meta({ id: "Balance" });

export const instalmentSchema = z.strictObject({
  number: z.int().min(1),
  due_date: calendarDate(),
  principal_pence: pence(),
  interest_pence: pence(),
  amount_pence: pence(),
  status: z.enum(INSTALMENT_STATUSES),
});

export const accountSchema = z
  .strictObject({
    id: idOf("acc"),
    object: z.literal("account"),
    livemode: z.boolean(),
    status: z.enum(ACCOUNT_STATUSES),
    forborne_until: calendarDate().nullable().meta({ description: "While `forborne`: the day the arrangement ends, if it was agreed until a date." }),
    product: z.enum(ACCOUNT_PRODUCTS),
    application_id: idOf("app"),
    borrower: z.strictObject({ company_number: text(), company_name: text() }),
    principal_pence: pence(),
    credit_limit_pence: pence().nullable(),
    available_pence: pence().nullable(),
    term_months: z.int(),
    rate_apr: z.number().meta({ description: "The APR as a percentage: apr_bps / 100." }),
    apr_bps: z.int(),
    disbursed_at: timestamp().nullable(),
    balance: balanceSchema,
    schedule: z.array(instalmentSchema),
    sub_account_id: text().nullable(),
    reference: text().nullable(),
    metadata: metadataObject,
    created_at: timestamp(),
  })
  .meta({ id: "Account", description: "A funded loan or facility being serviced (spec 2.4)." });

export const transactionSchema = z
  .strictObject({
    id: idOf("txn"),
    object: z.literal("transaction"),
    account_id: idOf("acc"),
    type: z.enum(TRANSACTION_TYPES),
    amount_pence: pence().meta({ description: "Drawdowns negative, collections positive." }),
    payment_id: idOf("pay").nullable(),
    posted_at: timestamp(),
  })
  .meta({ id: "Transaction", description: "An entry of the immutable ledger." });

export const accountListSchema = listEnvelopeSchema(accountSchema);
export const transactionListSchema = listEnvelopeSchema(transactionSchema);

export const accountIdParamsSchema = z.strictObject({ id: requestString().startsWith("acc_") });

export const listAccountsQuerySchema = listQuerySchema({
  status: z.enum(ACCOUNT_STATUSES).optional(),
  sub_account_id: subAccountIdSchema.optional(),
});

export const listTransactionsQuerySchema = listQuerySchema({});

export const drawdownBodySchema = z.strictObject({
  amount_pence: z.int().min(1).max(MAX_AMOUNT_PENCE),
});

export type DrawdownInput = z.output<typeof drawdownBodySchema>;
