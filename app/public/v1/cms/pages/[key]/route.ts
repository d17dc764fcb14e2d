// GET /public/v1/cms/pages/{key} — a published CMS page (spec 4.8, 2.10); 404 cms_page_not_found otherwise (7.3).
import { z } from "zod";
import { getPublishedPage } from "@/lib/cms/service";
import { defineRoute, endpoint, ok } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/cms/pages/{key}", {
  GET: endpoint({
    // Any string: a params failure would answer `not_found`, telling a malformed key from an unknown or
    // unpublished one. The service gives all three the same `cms_page_not_found`.
    params: z.strictObject({ key: z.string() }),
    handler: async ({ params }) => ok(await getPublishedPage(params.key), { "Cache-Control": "public, max-age=60" }),
  }),
});
