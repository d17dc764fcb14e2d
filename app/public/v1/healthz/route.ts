// GET /public/v1/healthz — platform health (spec 2.10, 4.8): 200 when healthy, 503 with the same shape otherwise.
import { db } from "@/lib/db";
import { checkHealth } from "@/lib/health/health";
import { defineRoute, endpoint, reply } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/healthz", {
  GET: endpoint({
    handler: async () => {
      const health = await checkHealth(db());
      return reply(health.status === "ok" ? 200 : 503, health);
    },
  }),
});
