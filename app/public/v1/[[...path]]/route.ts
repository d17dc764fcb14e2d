// Any path under /public/v1 that no route matches: 404 `route_not_found` for every method (spec 4.8).
import { unmatchedRoute } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unmatchedRoute("public");
