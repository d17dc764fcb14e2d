// The platform's own project: the site is its own first partner (docs/apply-directly.md). Its live publishable
// key starts the applications of the Apply page through the apply widget's service, and is accepted only from the
// site's origin (lib/apply-widget/start.ts), which it lists as its one allowed origin, as a live key must list its
// partner's pages. Made when missing, as the server starts (lib/seed/seed-platform.ts) and, for a process that
// skipped the seed, at the first start; a revoked key is replaced, and a key listing another origin (the site moved,
// or a key made before keys listed their pages) is given the site's. No secret key of it is kept: nobody calls the
// partner API as the site.
import { clock } from "../clock";
import type { Database } from "../db";
import { config } from "../env";
import { hashSecret, newKeyRow } from "../keys/secrets";
import { createProject } from "../projects/create-project";

export const SITE_PROJECT_NAME = "Lending Platform (direct applications)";

export interface SiteProject {
  projectId: string;
  publishableKey: string;
}

/** The site's origin, the one page origin its key lists: set from the platform's own configuration, never a partner's. */
const siteOrigins = () => [new URL(config().BASE_URL).origin];

/** Whether the key is the project's and still works; if so, it is made to list the site's origin alone. */
async function activeKey(database: Database, projectId: string, publishableKey: string): Promise<boolean> {
  const key = await database.apiKey.findUnique({
    where: { secretHash: hashSecret(publishableKey) },
    select: { id: true, projectId: true, status: true, expiresAt: true, allowedOrigins: true },
  });
  if (key?.projectId !== projectId || key.status !== "active" || key.expiresAt !== null) return false;
  const origins = siteOrigins();
  if (key.allowedOrigins.join("\n") !== origins.join("\n")) await database.apiKey.update({ where: { id: key.id }, data: { allowedOrigins: origins } });
  return true;
}

async function issueLivePublishableKey(database: Database, projectId: string): Promise<string> {
  const { secret, row } = newKeyRow({ projectId, type: "publishable", environment: "live", createdAt: clock.now() });
  await database.$transaction([
    database.apiKey.create({ data: { ...row, allowedOrigins: siteOrigins() } }),
    database.project.update({ where: { id: projectId }, data: { sitePublishableKey: secret } }),
  ]);
  return secret;
}

/** The site's project and its live publishable key, made or repaired when needed. Idempotent. */
export async function ensureSiteProject(database: Database): Promise<SiteProject & { created: boolean }> {
  const existing = await database.project.findFirst({ where: { sitePublishableKey: { not: null } }, orderBy: { id: "asc" } });
  if (existing?.sitePublishableKey) {
    if (await activeKey(database, existing.id, existing.sitePublishableKey)) {
      return { projectId: existing.id, publishableKey: existing.sitePublishableKey, created: false };
    }
    return { projectId: existing.id, publishableKey: await issueLivePublishableKey(database, existing.id), created: false };
  }
  const project = await createProject(database, { name: SITE_PROJECT_NAME, tier: "platform" });
  await database.$transaction([
    database.project.update({ where: { id: project.project_id }, data: { sitePublishableKey: project.live.publishable_key } }),
    database.apiKey.update({ where: { secretHash: hashSecret(project.live.publishable_key) }, data: { allowedOrigins: siteOrigins() } }),
  ]);
  return { projectId: project.project_id, publishableKey: project.live.publishable_key, created: true };
}
