// GET /docs/api/reference.js — the script that renders the API reference page (lib/openapi/renderer.ts).
import { defineRoute, endpoint } from "@/lib/http/route";
import { text } from "@/lib/wire/response-schema";
import { rendererResponse } from "@/lib/openapi/renderer";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/docs/api/reference.js", {
  GET: endpoint({
    summary: "The API reference page's renderer script",
    responses: { 200: text().meta({ contentMediaType: "text/javascript" }) },
    auth: { kind: "none" },
    handler: ({ request }) => rendererResponse(request.headers.get("if-none-match")),
  }),
});
