// GET /healthz — site liveness probe (spec 4.1). Deliberately touches nothing: it is also the framework floor
// the benchmark measures every other route against.
import { defineRoute, endpoint, ok } from "@/lib/http/route";
import { livenessSchema } from "@/lib/health/schemas";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = defineRoute("site", "/healthz", {
  GET: endpoint({ summary: "Liveness", responses: { 200: livenessSchema }, auth: { kind: "none" }, handler: () => ok({ status: "ok" }) }),
});
