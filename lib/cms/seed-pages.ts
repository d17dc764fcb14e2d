// The standard site pages, created and published from content/cms/<key>.md when missing. A page that already
// exists is never touched: an operator may have edited or unpublished it since.
import { readFileSync } from "node:fs";
import path from "node:path";
import { clock } from "../clock";
import { db, type DatabaseClient } from "../db";
import { markdownTitle } from "./sanitize";
import { savePageInputSchema } from "./schemas";
import { renderPageSource } from "./service";

export const SEEDED_CMS_PAGE_KEYS = ["about", "faq", "terms", "privacy", "complaints", "cookies", "business-loan-terms"] as const;

export const CMS_CONTENT_DIR = path.join(process.cwd(), "content", "cms");

function readSeedPage(key: string) {
  const file = path.join(CMS_CONTENT_DIR, `${key}.md`);
  const source = readFileSync(file, "utf8");
  const title = markdownTitle(source);
  if (!title) throw new Error(`${file} must start with a "# Title" heading`);
  return savePageInputSchema.parse({ key, title, format: "markdown", source });
}

/** Creates and publishes each standard page that does not exist yet; returns how many it created. */
export async function seedCmsPages(database: DatabaseClient = db()): Promise<number> {
  const existing = await database.cmsPage.findMany({ where: { key: { in: [...SEEDED_CMS_PAGE_KEYS] } }, select: { key: true } });
  const present = new Set(existing.map((page) => page.key));
  const missing = SEEDED_CMS_PAGE_KEYS.filter((key) => !present.has(key)).map(readSeedPage);
  if (missing.length === 0) return 0;
  const now = clock.now();
  // skipDuplicates: a page another process created meanwhile is left as it is, and not counted.
  const { count } = await database.cmsPage.createMany({
    data: missing.map((page) => ({
      key: page.key,
      title: page.title,
      sourceFormat: page.format,
      source: page.source,
      html: renderPageSource(page.format, page.source),
      published: true,
      updatedAt: now,
      createdAt: now,
    })),
    skipDuplicates: true,
  });
  return count;
}
