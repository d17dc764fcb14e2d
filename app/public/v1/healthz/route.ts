// GET /public/v1/healthz — platform health (spec 2.10, 4.8): 200 when healthy, 503 with the same shape otherwise.
import { db } from "@/lib/db";
import { checkHealth } from "@/lib/health/health";
import { defineRoute, endpoint, reply } from "@/lib/http/route";
import { healthSchema } from "@/lib/health/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("public", "/healthz", {
  GET: endpoint({
    summary: "Platform health",
    description: "200 when healthy; 503 with the same object when the database, its migrations or the queue are not.",
    responses: { 200: healthSchema, 503: healthSchema },
    auth: { kind: "none" },
    handler: async () => {
      const health = await checkHealth(db());
      return reply(health.status === "ok" ? 200 : 503, health);
    },
  }),
});
