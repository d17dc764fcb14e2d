// A CMS page (lib/cms) as a page of the site: its title and its server-sanitised HTML, read through the site's
// cache (lib/site/content.ts), which the change feed empties when the page is edited. An unpublished page is a 404.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { siteCmsPage } from "@/lib/site/content";

const UPDATED = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });

export async function cmsArticleMetadata(key: string): Promise<Metadata> {
  const page = await siteCmsPage(key);
  return page ? { title: page.title } : {};
}

export async function CmsArticle({ pageKey, children }: { pageKey: string; children?: ReactNode }) {
  const page = await siteCmsPage(pageKey);
  if (!page) notFound();
  const [heading, body] = splitTitle(page.html);
  return (
    <main className="page cms-article">
      <h1>{page.title}</h1>
      <p className="updated">Last updated {UPDATED.format(new Date(page.updated))}</p>
      {/* Sanitised when the page was saved (lib/cms/sanitize.ts), so it is served as stored. */}
      <div dangerouslySetInnerHTML={{ __html: heading ? body : page.html }} />
      {children}
    </main>
  );
}

/** The rendered Markdown starts with the page's own `# Title`, which the page already shows as its h1. */
function splitTitle(html: string): [string | null, string] {
  const match = /^\s*<h1[^>]*>[\s\S]*?<\/h1>/.exec(html);
  return match ? [match[0], html.slice(match[0].length)] : [null, html];
}
