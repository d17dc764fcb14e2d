// Any path under /partner/v1 that no route matches: 404 `route_not_found` for every method.
import { unmatchedRoute } from "@/lib/http/route";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = unmatchedRoute("partner");
