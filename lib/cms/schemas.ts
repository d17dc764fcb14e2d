// CMS page input (spec 2.10, 4.8): a page's key is a lower-case slug, its title a short line.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { text, timestamp } from "../wire/response-schema";

export const CMS_PAGE_FORMATS = ["markdown", "html"] as const;
export type CmsPageFormat = (typeof CMS_PAGE_FORMATS)[number];

export const CMS_PAGE_KEY_MAX_LENGTH = 64;

export const cmsPageKeySchema = requestString()
  .max(CMS_PAGE_KEY_MAX_LENGTH, `must be at most ${CMS_PAGE_KEY_MAX_LENGTH} characters`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a lower-case slug: letters a-z, digits and single hyphens between them");

export const cmsPageTitleSchema = requestString().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export const savePageInputSchema = z.strictObject({
  key: cmsPageKeySchema,
  title: cmsPageTitleSchema,
  format: z.enum(CMS_PAGE_FORMATS),
  source: requestString(),
  publish: z.boolean().optional(),
});

export type SavePageInput = z.input<typeof savePageInputSchema>;

export const publicCmsPageSchema = z
  .strictObject({ key: text(), title: text(), html: text().meta({ description: "Sanitised HTML." }), updated: timestamp() })
  .meta({ id: "CmsPage", description: "A published CMS page (spec 2.10)." });
