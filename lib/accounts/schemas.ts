// Request schemas of the accounts API (spec 4.3) and the values of an account's enums.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { listQuerySchema } from "../wire/pagination";
import { MAX_AMOUNT_PENCE } from "../decisions/pricing-table";

export const ACCOUNT_STATUSES = ["performing", "in_arrears", "forborne", "settled", "closed"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const ACCOUNT_PRODUCTS = ["business_term_loan", "flex_facility"] as const;
export type AccountProduct = (typeof ACCOUNT_PRODUCTS)[number];

export const INSTALMENT_STATUSES = ["scheduled", "paid", "missed", "partially_paid"] as const;
export type InstalmentStatus = (typeof INSTALMENT_STATUSES)[number];

export const TRANSACTION_TYPES = ["collection", "drawdown", "refund", "adjustment"] as const;

export const accountIdParamsSchema = z.strictObject({ id: requestString().startsWith("acc_") });

export const listAccountsQuerySchema = listQuerySchema({
  status: z.enum(ACCOUNT_STATUSES).optional(),
  sub_account_id: requestString().regex(/^sub_[0-9a-z]{1,64}$/, "A sub-account id looks like sub_...").optional(),
});

export const listTransactionsQuerySchema = listQuerySchema({});

export const drawdownBodySchema = z.strictObject({
  amount_pence: z.int().min(1).max(MAX_AMOUNT_PENCE),
});

export type DrawdownInput = z.output<typeof drawdownBodySchema>;
