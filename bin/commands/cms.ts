import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { markdownTitle } from "../../lib/cms/sanitize";
import { cmsPageKeySchema, cmsPageTitleSchema, type CmsPageFormat } from "../../lib/cms/schemas";
import type { CmsPageSummary } from "../../lib/cms/serialize";
import { listPages, savePage, setPublished } from "../../lib/cms/service";
import { parseFlags, UsageError, type Command } from "../cli-kit";

const FORMAT_BY_EXTENSION: Record<string, CmsPageFormat> = { ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html" };

function parseKey(value: string): string {
  const result = cmsPageKeySchema.safeParse(value);
  if (!result.success) throw new UsageError(`KEY ${result.error.issues[0]!.message}`);
  return result.data;
}

function readPageFile(file: string): { format: CmsPageFormat; source: string } {
  const format = FORMAT_BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!format) throw new UsageError("--file: must end in .md, .markdown, .html or .htm");
  try {
    return { format, source: readFileSync(file, "utf8") };
  } catch (error) {
    throw new UsageError(`--file: cannot read ${file} (${error instanceof Error && "code" in error ? String(error.code) : "unreadable"})`);
  }
}

function describeVisibility(page: CmsPageSummary): string {
  return page.published ? "published" : "unpublished";
}

const putFlags = z.object({
  file: z.string({ error: "is required" }).min(1, "must not be empty"),
  title: cmsPageTitleSchema.optional(),
  publish: z.boolean().optional(),
});

export const cmsPut: Command = {
  words: ["cms", "put"],
  synopsis: "KEY --file PATH [--title TITLE] [--publish] [--json]",
  description: "Create or replace a CMS page from a Markdown (.md) or HTML (.html) file, sanitised; a new page stays unpublished without --publish.",
  options: {
    file: { type: "string", value: "PATH", description: "The page's source: .md, .markdown, .html or .htm." },
    title: { type: "string", value: "TITLE", description: "The page title; a Markdown file's first \"# \" heading when absent." },
    publish: { type: "boolean", description: "Publish it too (a new page stays unpublished otherwise)." },
  },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const key = parseKey(positionals[0]!);
    const flags = parseFlags(putFlags, values);
    const { format, source } = readPageFile(flags.file);
    const title = flags.title ?? (format === "markdown" ? markdownTitle(source) : null);
    if (!title) throw new UsageError("--title: is required unless the Markdown file starts with a \"# Title\" heading");
    await database();
    const page = await savePage({ key, title, format, source, publish: flags.publish });
    print(`Saved page ${page.key} (${page.format}, ${describeVisibility(page)}): ${page.title}`, page);
  },
};

function visibilityCommand(word: "publish" | "unpublish", published: boolean, description: string): Command {
  return {
    words: ["cms", word],
    synopsis: "KEY [--json]",
    description,
    options: {},
    positionals: 1,
    async run({ positionals, database, print }) {
      const key = parseKey(positionals[0]!);
      await database();
      const page = await setPublished(key, published);
      print(`Page ${page.key} is ${describeVisibility(page)}.`, page);
    },
  };
}

export const cmsPublish = visibilityCommand("publish", true, "Publish a CMS page: GET /public/v1/cms/pages/KEY serves it.");
export const cmsUnpublish = visibilityCommand("unpublish", false, "Unpublish a CMS page: the public ring answers 404 for it, as for an unknown key.");

export const cmsList: Command = {
  words: ["cms", "list"],
  synopsis: "[--json]",
  description: "Every CMS page, published or not, by key.",
  options: {},
  async run({ database, print }) {
    await database();
    const pages = await listPages();
    const lines = pages.map((page) => `${page.key.padEnd(24)} ${describeVisibility(page).padEnd(11)} ${page.format.padEnd(8)} ${page.updated}  ${page.title}`);
    print(lines.length ? lines.join("\n") : "No CMS pages.", pages);
  },
};
