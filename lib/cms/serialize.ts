// CMS page rows to the wire: the public page of spec 2.10, and the admin summary the CLI lists.
import type { CmsPage } from "../generated/prisma/client";
import type { CmsPageFormat } from "./schemas";

export interface PublicCmsPage {
  key: string;
  title: string;
  html: string;
  updated: string;
}

export interface CmsPageSummary {
  key: string;
  title: string;
  format: CmsPageFormat;
  published: boolean;
  updated: string;
  created: string;
}

export function serializePublicPage(page: CmsPage): PublicCmsPage {
  return { key: page.key, title: page.title, html: page.html, updated: page.updatedAt.toISOString() };
}

export function serializePageSummary(page: CmsPage): CmsPageSummary {
  return {
    key: page.key,
    title: page.title,
    format: page.sourceFormat as CmsPageFormat,
    published: page.published,
    updated: page.updatedAt.toISOString(),
    created: page.createdAt.toISOString(),
  };
}
