// Creating an application (spec 4.2): the company is looked up in the registry, then the application opens
// `created` with its `application.created` event and the event's webhook deliveries, in one batched
// transaction on the fast lane (lib/applications/batched-transaction.ts) that reads nothing, so it reaches
// PostgreSQL as one message: the create is the write path the benchmark measures, and this module is the only
// one that writes through that transaction.
import { clock } from "../clock";
import { config } from "../env";
import { ApiError } from "../errors";
import { eventRows, type EventRow } from "../events/events";
import { Prisma, type Application } from "../generated/prisma/client";
import { newId, randomToken } from "../ids";
import { RegistryBudgetSpentError, RegistryUnavailableError } from "../registry/errors";
import { companyRegistry } from "../registry/registry";
import type { CompanyLookupFailure, RegistryCaller } from "../registry/types";
import type { Tenant } from "../tenant";
import { WEBHOOK_ENDPOINTS_PER_PROJECT } from "../webhooks/schemas";
import { inBatchedTransaction, type Statements } from "./batched-transaction";
import type { CreateApplicationInput } from "./schemas";
import { serializeApplication } from "./serialize";
import { insertIntroductionSql } from "../revenue-share/introductions";
import { subAccountForOrigination } from "../revenue-share/sub-accounts";

const DAY_MS = 86_400_000;

const LOOKUP_MESSAGES: Record<CompanyLookupFailure, string> = {
  invalid_format: "A company number is 8 characters: 8 digits, or 2 capital letters and 6 digits.",
  company_not_found: "No company is registered under this number.",
  not_incorporated: "Only UK limited companies and LLPs can borrow; this number is not an incorporated body.",
  company_dissolved: "This company has been dissolved.",
};

function companyNumberRejected(reason: CompanyLookupFailure): ApiError {
  return new ApiError("validation_failed", {
    detail: [{ field: "business.company_number", reason, message: LOOKUP_MESSAGES[reason] }],
  });
}

/** https everywhere; plain http only to localhost, and only in the sandbox (for local development). */
function assertRedirectUriAllowed(redirectUri: string | undefined, environment: Tenant["environment"]): void {
  if (redirectUri === undefined) return;
  const url = new URL(redirectUri);
  if (url.protocol === "https:") return;
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (environment === "sandbox" && local) return;
  throw new ApiError("validation_failed", {
    detail: [{
      field: "redirect_uri",
      reason: "must_be_https",
      message: environment === "sandbox" ? "redirect_uri must be https (or http on localhost)." : "redirect_uri must be https.",
    }],
  });
}

async function lookUpCompany(companyNumber: string, environment: Tenant["environment"], caller: RegistryCaller) {
  try {
    return await companyRegistry(environment).lookup(companyNumber, { caller });
  } catch (error) {
    if (error instanceof RegistryBudgetSpentError) {
      throw new ApiError("service_unavailable", { message: "Too many company lookups at the moment; retry after the Retry-After delay.", retryAfterMs: error.retryAfterMs });
    }
    if (error instanceof RegistryUnavailableError) {
      throw new ApiError("service_unavailable", { message: "The company registry is not answering; retry shortly.", retryAfterMs: 5_000 });
    }
    throw error;
  }
}

type OptionalOnOpening =
  | "product" | "purpose" | "reference" | "applicantEmail" | "applicantFirstName" | "redirectUri" | "introductionId" | "subAccountId" | "embeddingOrigin" | "metadata";

/** What opening an application takes; the journey and decisioning fill in the rest later. */
export type NewApplication = Pick<
  Application,
  "id" | "projectId" | "environment" | "companyNumber" | "companyName" | "companyKind" | "incorporatedOn" | "amountPence" | "termMonths" | "handoffToken" | "expiresAt"
> & Partial<Pick<Application, OptionalOnOpening>>;

/**
 * The events' rows and their deliveries, as lib/events/events.ts `recordEvents` writes them through Prisma
 * (tests/database/applications/batched-events.test.ts holds the rows the two write equal). The deliveries are
 * chosen by PostgreSQL in the same statement that inserts them, so the transaction needs no read and goes to
 * the database as one message: their ids are made here, one per endpoint the project may have, and each
 * subscribed endpoint takes the next.
 */
export async function recordEventsInBatch(statements: Statements, events: EventRow[]): Promise<void> {
  const [first] = events;
  if (!first) return;
  // Deliveries are due on real time, whatever time a sandbox project's test clock gives its events.
  const scheduledAt = clock.now();
  await statements.write(Prisma.sql`INSERT INTO events (id, project_id, environment, type, api_version, object, created_at, recorded_at)
    VALUES ${Prisma.join(events.map((row) => Prisma.sql`(${row.id}, ${row.projectId}, ${row.environment}::"Environment", ${row.type},
      ${row.apiVersion}, ${JSON.stringify(row.object)}::json, ${row.createdAt}, ${row.recordedAt})`))}`);
  if (!first.projectId) return;
  const deliveryIds = Array.from({ length: WEBHOOK_ENDPOINTS_PER_PROJECT * events.length }, () => newId("webhookDelivery"));
  await statements.write(Prisma.sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, project_id, next_attempt_at,
    created_at, updated_at)
    SELECT (ARRAY[${Prisma.join(deliveryIds)}])[row_number() OVER (ORDER BY event.id, endpoint.id)], endpoint.id, event.id,
      ${first.projectId}, ${scheduledAt}::timestamptz, ${scheduledAt}::timestamptz, ${scheduledAt}::timestamptz
    FROM (VALUES ${Prisma.join(events.map((row) => Prisma.sql`(${row.id}, ${row.type})`))}) AS event (id, type)
    JOIN webhook_endpoints endpoint ON endpoint.project_id = ${first.projectId}
      AND endpoint.environment = ${first.environment}::"Environment" AND endpoint.status = 'enabled'
      AND ('*' = ANY (endpoint.enabled_events) OR event.type = ANY (endpoint.enabled_events))`);
}

/** The first state of the lifecycle (lib/applications/state-machine.ts): a new application, `created`, with its event. */
export async function openApplication(statements: Statements, data: NewApplication, now: Date): Promise<Application> {
  const application: Application = {
    product: "business_loan",
    purpose: null,
    reference: null,
    applicantEmail: null,
    applicantFirstName: null,
    redirectUri: null,
    introductionId: null,
    subAccountId: null,
    embeddingOrigin: null,
    metadata: {},
    ...data,
    status: "created",
    decisionId: null,
    accountId: null,
    declaredAnnualTurnoverPence: null,
    consentedAt: null,
    submittedAt: null,
    withdrawnAt: null,
    withdrawalReason: null,
    fundedAt: null,
    endedAt: null,
    personalDataErasedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  // The columns left out are all null.
  await statements.write(Prisma.sql`INSERT INTO applications (id, project_id, environment, status, company_number,
    company_name, company_kind, incorporated_on, amount_pence, term_months, product, purpose, reference, applicant_email,
    applicant_first_name, redirect_uri, introduction_id, sub_account_id, embedding_origin, metadata, handoff_token, expires_at, created_at, updated_at)
    VALUES (${application.id}, ${application.projectId}, ${application.environment}::"Environment", 'created',
    ${application.companyNumber}, ${application.companyName}, ${application.companyKind}::"CompanyKind",
    ${application.incorporatedOn}, ${application.amountPence}, ${application.termMonths},
    ${application.product}::"ApplicationProduct", ${application.purpose}::"ApplicationPurpose", ${application.reference}, ${application.applicantEmail},
    ${application.applicantFirstName}, ${application.redirectUri}, ${application.introductionId}, ${application.subAccountId}, ${application.embeddingOrigin},
    ${JSON.stringify(application.metadata)}::jsonb, ${application.handoffToken}, ${application.expiresAt}, ${now}, ${now})`);
  await recordEventsInBatch(statements, eventRows([
    { projectId: application.projectId, environment: application.environment, type: "application.created", object: serializeApplication(application), createdAt: now },
  ]));
  return application;
}

/**
 * Opens an application in `transaction` (the create endpoint's batched transaction), or in one of its own. An
 * `embeddingOrigin` records the page whose apply.js widget started it (lib/apply-widget/start.ts), and
 * `registryCaller` whose share of the registry's budget its lookup spends (a partner's, unless said otherwise).
 */
export async function createApplication(options: {
  tenant: Tenant;
  /** The request's time on the tenant's clock: the application, its expiry and its event all carry it. */
  now: Date;
  input: CreateApplicationInput;
  transaction?: Statements;
  embeddingOrigin?: string;
  registryCaller?: RegistryCaller;
}) {
  const { tenant, now, input } = options;
  assertRedirectUriAllowed(input.redirect_uri, tenant.environment);
  const subAccount = input.sub_account_id === undefined ? null : await subAccountForOrigination(tenant, input.sub_account_id);
  const lookup = await lookUpCompany(input.business.company_number, tenant.environment, options.registryCaller ?? "partner");
  if (!lookup.found) throw companyNumberRejected(lookup.reason);
  const applicationId = newId("application");
  const introductionId = subAccount ? newId("introduction") : (input.introduction_id ?? null);
  const open = async (statements: Statements) => {
    const opened = await openApplication(
      statements,
      {
        id: applicationId,
        projectId: tenant.projectId,
        environment: tenant.environment,
        companyNumber: lookup.company.companyNumber,
        companyName: lookup.company.name,
        companyKind: lookup.company.kind,
        incorporatedOn: lookup.company.incorporatedOn,
        amountPence: input.amount_pence,
        termMonths: input.term_months,
        product: input.product ?? "business_loan",
        purpose: input.purpose ?? null,
        reference: input.reference ?? null,
        applicantEmail: input.applicant?.email ?? null,
        applicantFirstName: input.applicant?.first_name ?? null,
        redirectUri: input.redirect_uri ?? null,
        introductionId,
        subAccountId: subAccount?.id ?? null,
        embeddingOrigin: options.embeddingOrigin ?? null,
        metadata: input.metadata ?? {},
        handoffToken: randomToken(32),
        expiresAt: new Date(now.getTime() + config().APPLICATION_EXPIRY_DAYS * DAY_MS),
      },
      now,
    );
    if (subAccount) await statements.write(insertIntroductionSql({ id: introductionId!, subAccount, applicationId, now }));
    return opened;
  };
  const application = await (options.transaction ? open(options.transaction) : inBatchedTransaction(open));
  return serializeApplication(application);
}
