// GET /public/v1/cms/pages/{key} — a published CMS page (spec 4.8, 2.10); 404 cms_page_not_found otherwise (7.3).
import { getPublishedPage } from "@/lib/cms/service";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { publicCmsPageSchema } from "@/lib/cms/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/cms/pages/{key}", {
  GET: endpoint({
    summary: "A published CMS page",
    responses: { 200: publicCmsPageSchema },
    auth: { kind: "none" },
    errors: ["cms_page_not_found"],
    // No params schema: its failure would answer `not_found`, telling a malformed key (one with a NUL in it,
    // say) from an unknown or unpublished one. The service checks the key, before any query, and gives all
    // three the same `cms_page_not_found`.
    handler: async ({ params }) => ok(await getPublishedPage(params.key ?? ""), { "Cache-Control": "public, max-age=60" }),
  }),
});
