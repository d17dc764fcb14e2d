// Who may frame a journey's pages (docs/apply-js.md, "Framing"): our own pages, and, for an application the
// apply.js widget started, the page that started it; no other. proxy.ts asks for every journey request by the
// token in its address. The origin is written with the application and never changes, so it is cached per
// process once read; a token that names nothing is not cached.
import { db } from "../db";
import { log } from "../log";

const CACHE_MAX_ENTRIES = 10_000;
const origins = new Map<string, string | null>();

/** The form every handoff token has; anything else names no application and needs no query. */
export function isHandoffTokenForm(token: string): boolean {
  return /^[0-9A-Za-z]{16,64}$/.test(token);
}

/** The origin that started the journey of `token` through the widget, or null (only our own pages may frame it). */
export async function embeddingOriginForToken(token: string): Promise<string | null> {
  if (!isHandoffTokenForm(token)) return null;
  const cached = origins.get(token);
  if (cached !== undefined) return cached;
  let application: { embeddingOrigin: string | null } | null;
  try {
    application = await db().application.findUnique({ where: { handoffToken: token }, select: { embeddingOrigin: true } });
  } catch (error) {
    // The page itself will say the service is unavailable; its headers fall back to our own pages only.
    log.warn("journey framing lookup failed", { error: error instanceof Error ? error.message : String(error) });
    return null;
  }
  if (!application) return null;
  if (origins.size >= CACHE_MAX_ENTRIES) origins.clear();
  origins.set(token, application.embeddingOrigin);
  return application.embeddingOrigin;
}
