// GET /openapi/partner.json, /openapi/public.json, /openapi/site.json — the API reference as OpenAPI 3.1
// documents, generated from the routes' endpoint configs (lib/openapi/document.ts, scripts/openapi.ts).
import { z } from "zod";
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { RenderedJson } from "@/lib/wire/rendered-json";
import { servedDocument } from "@/lib/openapi/documents";
import type { Ring } from "@/lib/errors";

const DOCUMENTS = { "partner.json": "partner", "public.json": "public", "site.json": "site" } as const satisfies Record<string, Ring>;

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/openapi/{document}", {
  GET: endpoint({
    summary: "An OpenAPI 3.1 document: partner.json, public.json or site.json",
    auth: { kind: "none" },
    params: z.strictObject({ document: z.enum(Object.keys(DOCUMENTS) as [keyof typeof DOCUMENTS]) }),
    responses: { 200: z.looseObject({ openapi: z.literal("3.1.0") }).meta({ description: "An OpenAPI 3.1 document." }) },
    errors: ["service_unavailable"],
    handler: async ({ params }) =>
      ok(new RenderedJson(await servedDocument(DOCUMENTS[params.document])), { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" }),
  }),
});
