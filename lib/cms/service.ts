// CMS pages (spec 2.10, 4.8): saved and published by an operator through the CLI, read by anyone through the
// public ring. HTML is rendered and sanitised once, when a page is saved, so reads serve stored HTML as is.
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import { ApiError } from "../errors";
import { parseWith } from "../wire/validation";
import { renderMarkdown, sanitizePageHtml } from "./sanitize";
import { cmsPageKeySchema, savePageInputSchema, type CmsPageFormat, type SavePageInput } from "./schemas";
import { serializePageSummary, serializePublicPage, type CmsPageSummary, type PublicCmsPage } from "./serialize";

export function renderPageSource(format: CmsPageFormat, source: string): string {
  return format === "markdown" ? renderMarkdown(source) : sanitizePageHtml(source);
}

/**
 * Creates or replaces a page's content. `publish` true or false sets its visibility; left out, a new page
 * stays unpublished and an existing one keeps its visibility.
 */
export async function savePage(input: SavePageInput, database: DatabaseClient = db()): Promise<CmsPageSummary> {
  const page = parseWith(savePageInputSchema, input);
  const now = clock.now();
  const content = {
    title: page.title,
    sourceFormat: page.format,
    source: page.source,
    html: renderPageSource(page.format, page.source),
    updatedAt: now,
  };
  const saved = await database.cmsPage.upsert({
    where: { key: page.key },
    create: { key: page.key, ...content, published: page.publish ?? false, createdAt: now },
    update: { ...content, ...(page.publish === undefined ? {} : { published: page.publish }) },
  });
  return serializePageSummary(saved);
}

/** Publishes or withdraws a page without touching its content (so `updated` stays the content's time). */
export async function setPublished(key: string, published: boolean, database: DatabaseClient = db()): Promise<CmsPageSummary> {
  const existing = await database.cmsPage.findUnique({ where: { key } });
  if (!existing) throw new ApiError("cms_page_not_found", { message: `No such page: ${key}.` });
  return serializePageSummary(await database.cmsPage.update({ where: { key }, data: { published } }));
}

/**
 * A published page. Malformed, unknown and unpublished keys all get the same error with the catalogue's
 * message, naming nothing, so a caller cannot learn whether a draft exists (spec 4.8: "indistinguishable").
 */
export async function getPublishedPage(key: string, database: DatabaseClient = db()): Promise<PublicCmsPage> {
  if (!cmsPageKeySchema.safeParse(key).success) throw new ApiError("cms_page_not_found");
  const page = await database.cmsPage.findFirst({ where: { key, published: true } });
  if (!page) throw new ApiError("cms_page_not_found");
  return serializePublicPage(page);
}

export async function listPublishedPages(database: DatabaseClient = db()): Promise<PublicCmsPage[]> {
  const pages = await database.cmsPage.findMany({ where: { published: true }, orderBy: { key: "asc" } });
  return pages.map(serializePublicPage);
}

/** Every page, published or not, for the operator. */
export async function listPages(database: DatabaseClient = db()): Promise<CmsPageSummary[]> {
  const pages = await database.cmsPage.findMany({ orderBy: { key: "asc" } });
  return pages.map(serializePageSummary);
}
