// The addresses of the dashboard's read sections (events, applications, accounts) and their filters. A filter
// form is a GET, so its values are the address's query: shareable, no hidden state. Each page's query becomes the
// partner API's own list query (piped into its schema), so a page lists exactly what `GET /partner/v1/…` would.
import { z } from "zod";
import { listAccountsQuerySchema, listTransactionsQuerySchema, ACCOUNT_STATUSES, accountIdParamsSchema } from "../accounts/schemas";
import { APPLICATION_STATUSES, applicationIdParamsSchema, listApplicationsQuerySchema } from "../applications/schemas";
import { startOfDay } from "../accounts/calendar";
import { EVENT_TYPES } from "../events/events";
import { eventIdParamsSchema, listEventsQuerySchema } from "../events/schemas";
import {
  INTRODUCTION_STAGES,
  listIntroductionsQuerySchema,
  listPayoutsQuerySchema,
  listSubAccountsQuerySchema,
  payoutIdParamsSchema,
  subAccountIdSchema,
} from "../revenue-share/schemas";
import { requestString } from "../wire/request-string";
import { csrfToken, dashboardParamsSchema } from "./schemas";

/** Rows a list page shows at a time. */
export const DASHBOARD_PAGE_SIZE = 25;

export const dashboardEventParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, ...eventIdParamsSchema.shape });
export const dashboardApplicationParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, ...applicationIdParamsSchema.shape });
export const dashboardAccountParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, ...accountIdParamsSchema.shape });

/** An empty field of a GET form (`?status=`) filters nothing. */
function optionalField<T extends z.ZodType>(schema: T) {
  return z.union([z.literal("").transform(() => undefined), schema]).optional();
}

const DAY_MS = 86_400_000;
/** A calendar day as a date field sends it (2026-11-27); days run midnight to midnight UTC. */
const day = requestString()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date such as 2026-11-27", abort: true })
  .refine((value) => !Number.isNaN(startOfDay(value).getTime()) && startOfDay(value).toISOString().startsWith(value), "must be a real date");
const cursor = requestString().min(1).max(64);
const page = { starting_after: optionalField(cursor) };
const limit = String(DASHBOARD_PAGE_SIZE);

/** `…/events?type=…&from=…&to=…&starting_after=evt_…`: both days included. */
export const eventsPageQuerySchema = z
  .strictObject({ type: optionalField(z.enum(EVENT_TYPES)), from: optionalField(day), to: optionalField(day), ...page })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: "From must be on or before To", path: ["to"] })
  .transform(({ type, from, to, starting_after }): z.input<typeof listEventsQuerySchema> => ({
    type,
    // The API's bounds are exclusive: just before the first day starts, and the moment the last one ends.
    created_after: from ? new Date(startOfDay(from).getTime() - 1).toISOString() : undefined,
    created_before: to ? new Date(startOfDay(to).getTime() + DAY_MS).toISOString() : undefined,
    starting_after,
    limit,
  }))
  .pipe(listEventsQuerySchema);

/** `…/applications?status=…&starting_after=app_…` */
export const applicationsPageQuerySchema = z
  .strictObject({ status: optionalField(z.enum(APPLICATION_STATUSES)), ...page })
  .transform((query): z.input<typeof listApplicationsQuerySchema> => ({ ...query, limit }))
  .pipe(listApplicationsQuerySchema);

/** `…/accounts?status=…&starting_after=acc_…` */
export const accountsPageQuerySchema = z
  .strictObject({ status: optionalField(z.enum(ACCOUNT_STATUSES)), ...page })
  .transform((query): z.input<typeof listAccountsQuerySchema> => ({ ...query, limit }))
  .pipe(listAccountsQuerySchema);

/** `…/accounts/{id}?starting_after=txn_…`: the page of the ledger shown. */
export const accountPageQuerySchema = z
  .strictObject(page)
  .transform((query): z.input<typeof listTransactionsQuerySchema> => ({ ...query, limit }))
  .pipe(listTransactionsQuerySchema);

/** `…/applications/{id}?released=1`: back from releasing its decision. */
export const applicationPageQuerySchema = z.strictObject({ released: optionalField(z.literal("1")) });

export const releaseDecisionFormSchema = z.strictObject({ csrf_token: csrfToken });

// The beta sections (docs/beta.md): sub-accounts, introductions and payouts, through their API list queries.

export const dashboardPayoutParamsSchema = z.strictObject({ ...dashboardParamsSchema.shape, ...payoutIdParamsSchema.shape });

/** `…/sub-accounts?starting_after=sub_…`; `?created=sub_…` back from Create sub-account. */
export const subAccountsPageQuerySchema = z
  .strictObject({ created: optionalField(subAccountIdSchema), ...page })
  .transform(({ starting_after }): z.input<typeof listSubAccountsQuerySchema> => ({ starting_after, limit }))
  .pipe(listSubAccountsQuerySchema);

/** `…/introductions?stage=…&sub_account_id=sub_…&starting_after=intro_…` */
export const introductionsPageQuerySchema = z
  .strictObject({ stage: optionalField(z.enum(INTRODUCTION_STAGES)), sub_account_id: optionalField(subAccountIdSchema), ...page })
  .transform((query): z.input<typeof listIntroductionsQuerySchema> => ({ ...query, limit }))
  .pipe(listIntroductionsQuerySchema);

/** `…/payouts?starting_after=po_…` */
export const payoutsPageQuerySchema = z
  .strictObject(page)
  .transform((query): z.input<typeof listPayoutsQuerySchema> => ({ ...query, limit }))
  .pipe(listPayoutsQuerySchema);
