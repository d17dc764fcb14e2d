// Starting an application from the apply.js widget (docs/apply-js.md): the publishable key's project and
// environment open it through the same create as POST /partner/v1/applications (application.created fires like
// any other), and the calling page's origin is recorded: the one origin besides ours that may frame its journey
// (proxy.ts), and the one the journey's end is announced to.
import { createApplication } from "../applications/create";
import { db } from "../db";
import { config } from "../env";
import { ApiError } from "../errors";
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

/**
 * A key that lists its pages' origins starts applications from those pages alone; a caller with no Origin (a
 * server) is refused too, since the partner chose to tie the key to pages.
 */
function assertKeyAllowsOrigin(allowedOrigins: readonly string[], embeddingOrigin: string | undefined): void {
  if (allowedOrigins.length === 0 || (embeddingOrigin !== undefined && allowedOrigins.includes(embeddingOrigin))) return;
  throw new ApiError("origin_not_allowed", {
    message: `This publishable key may be used only on pages of ${allowedOrigins.join(", ")}. Add this page's origin to the key's allowed origins in the dashboard's API keys, or use another key.`,
  });
}

export async function startWidgetApplication(options: {
  tenant: Tenant;
  now: Date;
  input: StartWidgetApplicationInput;
  origin: string | null;
  /** The publishable key's allowed origins; empty, any. */
  allowedOrigins?: readonly string[];
}) {
  const { tenant, now, input } = options;
  const embeddingOrigin = embeddingOriginOf(options.origin, tenant.environment);
  assertKeyAllowsOrigin(options.allowedOrigins ?? [], embeddingOrigin);
  await assertSiteKeyOrigin(tenant, embeddingOrigin);
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
