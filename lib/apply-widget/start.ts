// Starting an application from the apply.js widget (docs/apply-js.md): the publishable key's project and
// environment open it through the same create as POST /partner/v1/applications (application.created fires like
// any other), and the calling page's origin is recorded: the one origin besides ours that may frame its journey
// (proxy.ts), and the one the journey's end is announced to.
import { createApplication } from "../applications/create";
import { db } from "../db";
import { config } from "../env";
import { ApiError } from "../errors";
import type { PublishableKeyCaller } from "../keys/publishable";
import type { Tenant } from "../tenant";
import type { StartWidgetApplicationInput } from "./schemas";

/** An origin as a browser sends it: scheme, host (a DNS name or an IP literal) and a port; nothing a CSP could misread. */
const ORIGIN_FORM = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The calling page's origin, to record; undefined for a caller that is no page (no Origin header: a server, which
 * gets an ordinary hosted application). A page that cannot be named (`null`: a sandboxed frame, a file) is
 * refused, as is a live application's page on plain http other than localhost: its applicant's answers would be
 * framed by a page anyone on the network could change.
 */
function embeddingOriginOf(origin: string | null, environment: Tenant["environment"]): string | undefined {
  if (origin === null) return undefined;
  if (!ORIGIN_FORM.test(origin)) {
    throw new ApiError("origin_not_allowed", { message: "apply.js must run on an http or https page, not in a sandboxed frame or a local file." });
  }
  const url = new URL(origin);
  if (environment === "live" && url.protocol === "http:" && !LOCAL_HOSTS.has(url.hostname)) {
    throw new ApiError("origin_not_allowed", { message: "A live application can be started only from an https page." });
  }
  return url.origin;
}

/**
 * The platform's own project (the site's Apply page, docs/apply-directly.md) publishes its key on the site: a
 * browser may start applications with it from the site's origin alone, so no other page can pass its applicants
 * off as the platform's direct ones.
 */
async function assertSiteKeyOrigin(tenant: Tenant, embeddingOrigin: string | undefined): Promise<void> {
  if (embeddingOrigin === undefined || embeddingOrigin === new URL(config().BASE_URL).origin) return;
  const project = await db().project.findUnique({ where: { id: tenant.projectId }, select: { sitePublishableKey: true } });
  if (project?.sitePublishableKey) {
    throw new ApiError("origin_not_allowed", { message: "This publishable key is the platform's own: it starts applications only from the platform's site." });
  }
}

/** Where a partner changes a key's allowed origins: the API's update and the dashboard share one service. */
const WHERE_TO_ADD = "with POST /partner/v1/keys/{id} (allowed_origins) or on the dashboard's API keys page";

/**
 * A key that lists its pages' origins starts applications from those pages alone; a caller with no Origin (a
 * server) is refused too, since the partner chose to tie the key to pages. A live key that lists none starts
 * nothing: live applicants' answers go only through pages its partner registered. A sandbox key that lists none
 * starts them from anywhere, for trying the widget out.
 */
function assertKeyAllowsOrigin(key: PublishableKeyCaller, embeddingOrigin: string | undefined): void {
  const { allowedOrigins } = key;
  if (allowedOrigins.length === 0) {
    if (key.tenant.environment === "sandbox") return;
    throw new ApiError("origin_not_allowed", {
      message: `This live publishable key has no allowed origins yet, so it starts applications from no page. Register your pages' origins first, ${WHERE_TO_ADD}.`,
    });
  }
  if (embeddingOrigin !== undefined && allowedOrigins.includes(embeddingOrigin)) return;
  throw new ApiError("origin_not_allowed", {
    message: `This publishable key may be used only on pages of ${allowedOrigins.join(", ")}. Add this page's origin to the key's allowed origins ${WHERE_TO_ADD}, or use another key.`,
  });
}

/** A key that lists its pages sends its applicants back to one of them alone (none listed, a sandbox key: anywhere). */
function assertRedirectUriOnAllowedOrigin(allowedOrigins: readonly string[], redirectUri: string | undefined): void {
  if (redirectUri === undefined || allowedOrigins.length === 0) return;
  const origin = URL.parse(redirectUri)?.origin;
  if (origin !== undefined && allowedOrigins.includes(origin)) return;
  const message = `redirect_uri must be on one of the key's allowed origins (${allowedOrigins.join(", ")}). Add its origin to the key ${WHERE_TO_ADD}.`;
  throw new ApiError("validation_failed", { message, detail: [{ field: "redirect_uri", reason: "not_allowed", message }] });
}

/** A partner's page (or server) starting an application with its publishable key, through the widget's start endpoint. */
export async function startWidgetApplication(options: { key: PublishableKeyCaller; now: Date; input: StartWidgetApplicationInput; origin: string | null }) {
  const { key, now, input } = options;
  const { tenant } = key;
  const embeddingOrigin = embeddingOriginOf(options.origin, tenant.environment);
  await assertSiteKeyOrigin(tenant, embeddingOrigin);
  assertKeyAllowsOrigin(key, embeddingOrigin);
  assertRedirectUriOnAllowedOrigin(key.allowedOrigins, input.redirect_uri);
  return openHandoff({ tenant, now, input, embeddingOrigin });
}

/**
 * The platform's own site starting its visitor's application from our server (lib/direct-apply/start.ts), as a
 * partner's server would: no page is involved, so no page's origin is checked or recorded, and the journey is an
 * ordinary hosted one.
 */
export async function startSiteApplication(options: { tenant: Tenant; now: Date; input: StartWidgetApplicationInput }) {
  return openHandoff({ ...options, embeddingOrigin: undefined });
}

async function openHandoff(options: { tenant: Tenant; now: Date; input: StartWidgetApplicationInput; embeddingOrigin: string | undefined }) {
  const { tenant, now, input, embeddingOrigin } = options;
  // Its company lookup spends the widget starts' share of the registry's budget, never the partners' reserve.
  const application = await createApplication({ tenant, now, input, embeddingOrigin, registryCaller: "widget" });
  return {
    id: application.id,
    object: "application_handoff" as const,
    livemode: application.livemode,
    handoff_url: application.handoff_url,
    expires_at: application.expires_at,
  };
}
