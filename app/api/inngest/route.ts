// GET, POST, PUT /api/inngest — the Inngest serve endpoint for the background functions (inngest/functions.ts).
// Present only when Inngest is configured; otherwise the local driver runs the work and this path is a 404.
import { serve } from "inngest/next";
import { functions } from "@/inngest/functions";
import { inngestClient, inngestConfigured } from "@/lib/jobs/inngest-client";
import { unmatchedRoute, type RouteHandler } from "@/lib/http/route";

type Handlers = { GET: RouteHandler; POST: RouteHandler; PUT: RouteHandler };
let handlers: Handlers | undefined;

function resolve(): Handlers {
  handlers ??= inngestConfigured() ? (serve({ client: inngestClient(), functions }) as unknown as Handlers) : unmatchedRoute("site");
  return handlers;
}

export const GET: RouteHandler = (request, context) => resolve().GET(request, context);
export const POST: RouteHandler = (request, context) => resolve().POST(request, context);
export const PUT: RouteHandler = (request, context) => resolve().PUT(request, context);
