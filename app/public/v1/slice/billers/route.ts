// GET /public/v1/slice/billers — accepted billers, public-safe fields only (spec 2.10).
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { listAcceptedBillers } from "@/lib/billers/service";
import { billerListSchema } from "@/lib/billers/schemas";

const CACHEABLE = { "Cache-Control": "public, max-age=60" };

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/slice/billers", {
  GET: endpoint({
    summary: "Billers Slice customers may pay",
    responses: { 200: billerListSchema },
    auth: { kind: "none" },
    handler: async () => ok(await listAcceptedBillers(), CACHEABLE),
  }),
});
