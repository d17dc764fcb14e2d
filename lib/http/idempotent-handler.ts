// The Idempotency-Key step of create endpoints (spec 4.12; the rules are in lib/idempotency).
import { db } from "../db";
import { claimIdempotencyKey, completeIdempotencyKey, readIdempotencyKey, releaseIdempotencyKey, requestFingerprint } from "../idempotency/idempotency";
import type { Principal } from "./auth";
import { errorResponse, toResponse, type Reply, type RequestContext } from "./request-context";

interface IdempotentInput {
  request: Request;
  context: RequestContext;
  principal: Principal;
  body: unknown;
}

type Handler = (input: never) => Promise<Reply | Response> | Reply | Response;

/**
 * Runs an idempotent endpoint's handler under its Idempotency-Key: replays a finished first request, and
 * otherwise records this one's outcome in the transaction of its writes. A final 4xx is kept (the same request
 * would fail the same way); a retryable outcome (429, 5xx) releases the key so a retry can run. `beforeHandler`
 * (the route's sub-limit) runs only for a request that will run the handler: replays never spend it.
 */
export async function runIdempotently(handler: Handler, input: IdempotentInput, beforeHandler: () => Promise<void>): Promise<Response> {
  const { request, context, principal } = input;
  const key = readIdempotencyKey(request);
  if (key === null) {
    await beforeHandler();
    return toResponse(await handler(input as never));
  }
  const scope = { projectId: principal.projectId, environment: principal.environment };
  const claim = await claimIdempotencyKey(scope, key, requestFingerprint(request.method, context.url.pathname, input.body));
  if (claim.kind === "replay") {
    const headers: Record<string, string> = { "Idempotent-Replayed": "true" };
    // A replayed error keeps its envelope, so it keeps the header that mirrors the envelope's correlation id.
    const correlationId = (claim.body as { error?: { correlation_id?: unknown } } | null)?.error?.correlation_id;
    if (typeof correlationId === "string") headers["X-Service-Correlation-Id"] = correlationId;
    return Response.json(claim.body, { status: claim.status, headers });
  }
  try {
    await beforeHandler();
    const result = await db().$transaction(async (transaction) => {
      const outcome = await handler({ ...input, database: transaction } as never);
      if (outcome instanceof Response) throw new Error("An idempotent endpoint must return a Reply");
      await completeIdempotencyKey(transaction, claim.recordId, outcome.status, outcome.body);
      return outcome;
    });
    return toResponse(result);
  } catch (error) {
    const response = errorResponse(error, context);
    const body = await response.clone().json();
    if (body?.error?.retryable === true) await releaseIdempotencyKey(claim.recordId);
    else await completeIdempotencyKey(db(), claim.recordId, response.status, body);
    return response;
  }
}

