// The beta partner constructs on the wire (spec 2.5, 4.3; docs/beta.md): sub-accounts, introductions and payouts,
// their request schemas and the schemas of their replies.
import { z } from "zod";
import { listQuerySchema } from "../wire/pagination";
import { requestString } from "../wire/request-string";
import { idOf, listEnvelopeSchema, pence, text, timestamp } from "../wire/response-schema";

export const INTRODUCTION_STAGES = ["started", "decisioned", "funded", "declined"] as const;
export type IntroductionStage = (typeof INTRODUCTION_STAGES)[number];

export const PAYOUT_STATUSES = ["pending", "paid"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A rate in basis points: 0 to 10000 (100%). */
export const MAX_REVENUE_SHARE_BPS = 10_000;
const SUB_ACCOUNT_NAME_MAX_LENGTH = 100;

const idParam = (prefix: string, name: string) =>
  requestString().regex(new RegExp(`^${prefix}_[0-9a-z]{1,64}$`), `A ${name} id looks like ${prefix}_ followed by lower-case letters and digits.`);

export const subAccountIdSchema = idParam("sub", "sub-account");

/** YYYY-MM: a calendar month (UTC). */
const PERIOD_FORM = /^\d{4}-(0[1-9]|1[0-2])$/;

export const createSubAccountBodySchema = z.strictObject({
  name: requestString().trim().min(1, "name must not be empty.").max(SUB_ACCOUNT_NAME_MAX_LENGTH, `name must be at most ${SUB_ACCOUNT_NAME_MAX_LENGTH} characters.`),
  revenue_share_bps: z
    .int({ error: "revenue_share_bps must be a whole number of basis points." })
    .min(0, `revenue_share_bps must be between 0 and ${MAX_REVENUE_SHARE_BPS}.`)
    .max(MAX_REVENUE_SHARE_BPS, `revenue_share_bps must be between 0 and ${MAX_REVENUE_SHARE_BPS}.`)
    .optional(),
});
export type CreateSubAccountInput = z.output<typeof createSubAccountBodySchema>;

export const subAccountIdParamsSchema = z.strictObject({ id: subAccountIdSchema });
export const payoutIdParamsSchema = z.strictObject({ id: idParam("po", "payout") });

export const listSubAccountsQuerySchema = listQuerySchema({});

export const listIntroductionsQuerySchema = listQuerySchema({
  stage: z.enum(INTRODUCTION_STAGES).optional(),
  sub_account_id: subAccountIdSchema.optional(),
});
export type ListIntroductionsQuery = z.output<typeof listIntroductionsQuerySchema>;

export const listPayoutsQuerySchema = listQuerySchema({
  status: z.enum(PAYOUT_STATUSES).optional(),
  sub_account_id: subAccountIdSchema.optional(),
  period: requestString().regex(PERIOD_FORM, "period must be a month as YYYY-MM, such as 2026-11.").optional(),
});
export type ListPayoutsQuery = z.output<typeof listPayoutsQuerySchema>;

// Replies

export const subAccountSchema = z
  .strictObject({
    id: idOf("sub"),
    object: z.literal("sub_account"),
    livemode: z.boolean(),
    name: text().meta({ examples: ["Northside Brokers"] }),
    revenue_share_bps: z.int().meta({ description: "What its introductions earn, in basis points of the principal funded.", examples: [100] }),
    created_at: timestamp(),
  })
  .meta({ id: "SubAccount", description: "A sub-account (beta, spec 2.5): a distributor applications are originated through." });

export const introductionSchema = z
  .strictObject({
    id: idOf("intro"),
    object: z.literal("introduction"),
    livemode: z.boolean(),
    sub_account_id: idOf("sub"),
    application_id: idOf("app"),
    stage: z.enum(INTRODUCTION_STAGES),
    account_id: idOf("acc").nullable().meta({ description: "The servicing account once funded." }),
    revenue_share_bps: z.int().meta({ description: "The sub-account's rate when the introduction was made." }),
    principal_pence: pence().nullable().meta({ description: "Once funded: the principal the account opened with (a Flex facility: its limit)." }),
    share_pence: pence().nullable().meta({ description: "Once funded: the revenue share it earns, principal × rate, rounded down to the penny." }),
    payout_id: idOf("po").nullable().meta({ description: "The payout that pays its share, once made." }),
    introduced_at: timestamp(),
    funded_at: timestamp().nullable(),
  })
  .meta({ id: "Introduction", description: "An application originated through a sub-account (beta, spec 2.5, 3.3)." });

export const statementLineSchema = z
  .strictObject({
    introduction_id: idOf("intro"),
    application_id: idOf("app"),
    account_id: idOf("acc"),
    funded_at: timestamp(),
    principal_pence: pence(),
    revenue_share_bps: z.int(),
    share_pence: pence(),
  })
  .meta({ id: "PayoutStatementLine" });

const payoutFields = {
  id: idOf("po"),
  object: z.literal("payout"),
  livemode: z.boolean(),
  sub_account_id: idOf("sub"),
  period: text().meta({ description: "The month (UTC, YYYY-MM) of the fundings it pays for.", examples: ["2026-11"] }),
  status: z.enum(PAYOUT_STATUSES),
  gross_pence: pence().meta({ description: "The sum of its statement's shares." }),
  introductions: z.int().meta({ description: "How many introductions it pays for: its statement's lines." }),
  created_at: timestamp(),
  paid_at: timestamp().nullable(),
};

export const payoutSchema = z.strictObject(payoutFields).meta({ id: "Payout", description: "A month's revenue share for one sub-account (beta, spec 2.5)." });

export const payoutWithStatementSchema = z
  .strictObject({ ...payoutFields, statement: z.array(statementLineSchema).meta({ description: "One line per introduction, oldest funding first; the shares sum to gross_pence." }) })
  .meta({ id: "PayoutWithStatement" });

export const subAccountListSchema = listEnvelopeSchema(subAccountSchema);
export const introductionListSchema = listEnvelopeSchema(introductionSchema);
export const payoutListSchema = listEnvelopeSchema(payoutSchema);
