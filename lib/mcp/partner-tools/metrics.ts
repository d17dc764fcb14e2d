// The metrics tools (`owner.read`): the tenant's lending and operations over the last days, and its book.
import { z } from "zod";
import { readPortfolio, summariseAccountsOpened } from "../../accounts/queries";
import { ACCOUNT_PRODUCTS, ACCOUNT_STATUSES } from "../../accounts/schemas";
import { countApplications } from "../../applications/queries";
import { clock } from "../../clock";
import { countDecisionsByOutcome } from "../../decisions/queries";
import { countEvents } from "../../events/queries";
import { pence, timestamp } from "../../wire/response-schema";
import { countIdentityChecksByStatus } from "../../identity/queries";
import { formatPounds } from "../../money";
import { countCollectionsByStatus } from "../../payments/queries";
import { countWebhookDeliveriesByStatus } from "../../webhooks/queries";
import { defineTool } from "../tools";
import { ACCESS, type PartnerCaller } from "./access";
import { daysBefore, noArguments, windowInput } from "./arguments";

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
  async run({ days }, { tenant, now }) {
    const since = daysBefore(now, days);
    const [created, outcomes, funded, events] = await Promise.all([
      countApplications(tenant, { createdSince: since }),
      countDecisionsByOutcome(tenant, since),
      summariseAccountsOpened(tenant, since),
      countEvents(tenant, since),
    ]);
    const approved = outcomes.approved ?? 0;
    const decided = approved + (outcomes.declined ?? 0) + (outcomes.referred ?? 0);
    const structured = {
      since: since.toISOString(),
      applications_created: created,
      applications_decided: decided,
      approved,
      declined: outcomes.declined ?? 0,
      referred: outcomes.referred ?? 0,
      approval_rate: decided === 0 ? null : approved / decided,
      funded: funded.accounts,
      funded_pence: funded.principalPence,
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
  async run({ days }, { tenant, now }) {
    // Webhook deliveries run on real time; collections and identity checks on the tenant's clock.
    const since = daysBefore(clock.now(), days);
    const tenantSince = daysBefore(now, days);
    const [deliveries, collections, checks] = await Promise.all([
      countWebhookDeliveriesByStatus(tenant, since),
      countCollectionsByStatus(tenant, tenantSince),
      countIdentityChecksByStatus(tenant, tenantSince),
    ]);
    const succeeded = deliveries.succeeded ?? 0;
    const finished = succeeded + (deliveries.failed ?? 0) + (deliveries.abandoned ?? 0);
    const structured = {
      since: since.toISOString(),
      webhook_deliveries: {
        succeeded,
        failed: deliveries.failed ?? 0,
        abandoned: deliveries.abandoned ?? 0,
        pending: deliveries.pending ?? 0,
        success_rate: finished === 0 ? null : succeeded / finished,
      },
      collections: { settled: collections.settled ?? 0, failed: collections.failed ?? 0 },
      identity_checks: { verified: checks.verified ?? 0, review_required: checks.review_required ?? 0 },
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
  async run(_input, { tenant }) {
    const portfolio = await readPortfolio(tenant);
    const structured = {
      accounts: portfolio.byStatus.reduce((sum, group) => sum + group.accounts, 0),
      by_status: portfolio.byStatus.map((group) => ({ status: group.status, accounts: group.accounts, principal_outstanding_pence: group.principalOutstandingPence })),
      by_product: portfolio.byProduct.map((group) => ({
        product: group.product,
        accounts: group.accounts,
        principal_pence: group.principalPence,
        principal_outstanding_pence: group.principalOutstandingPence,
      })),
      arrears_pence: portfolio.arrearsPence,
    };
    const outstanding = structured.by_status.reduce((sum, group) => sum + group.principal_outstanding_pence, 0);
    return { text: `${structured.accounts} accounts, ${formatPounds(outstanding)} principal outstanding, ${formatPounds(structured.arrears_pence)} in arrears.`, structured };
  },
});

export const METRICS_TOOLS = [platformMetrics, opsMetrics, portfolioOverview];
