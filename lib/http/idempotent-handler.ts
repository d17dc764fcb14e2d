// The Idempotency-Key step of create endpoints (spec 4.12; the rules are in lib/idempotency).
import { db } from "../db";
import { inBatchedTransaction, statementsIn, type Statements } from "../statements";
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

export interface IdempotentOptions {
  /**
   * The handler's transaction: Prisma's, or a batched one on the fast lane for a handler that writes only
   * through `statements` (lib/statements.ts), which then runs in a transaction even without a key.
   */
  transaction: "prisma" | "batched";
  /** The route's sub-limit: spent only by a request that will run the handler, never by a replay. */
  beforeHandler: () => Promise<void>;
}

function withoutDatabase<T extends object>(input: T): T {
  return Object.defineProperty(input, "database", {
    get() {
      throw new Error("This endpoint writes through `statements` in a batched transaction: it has no `database`");
    },
  });
}

/** Runs `work` with the handler's input pointed at a new transaction of the chosen kind. */
function inHandlerTransaction<T>(kind: IdempotentOptions["transaction"], input: object, work: (input: object, statements: Statements) => Promise<T>): Promise<T> {
  if (kind === "batched") return inBatchedTransaction((statements) => work(withoutDatabase({ ...input, statements }), statements));
  return db().$transaction((transaction) => {
    const statements = statementsIn(transaction);
    return work({ ...input, database: transaction, statements }, statements);
  });
}

/**
 * Runs an idempotent endpoint's handler under its Idempotency-Key: replays a finished first request, and
 * otherwise records this one's outcome in the transaction of its writes. A final 4xx is kept (the same request
 * would fail the same way); a retryable outcome (429, 5xx) releases the key so a retry can run.
 */
export async function runIdempotently(handler: Handler, input: IdempotentInput, options: IdempotentOptions): Promise<Response> {
  const { request, context, principal } = input;
  const key = readIdempotencyKey(request);
  if (key === null) {
    await options.beforeHandler();
    if (options.transaction === "prisma") return toResponse(await handler(input as never));
    return toResponse(await inHandlerTransaction("batched", input, async (inTransaction) => handler(inTransaction as never)));
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
    await options.beforeHandler();
    const result = await inHandlerTransaction(options.transaction, input, async (inTransaction, statements) => {
      const outcome = await handler(inTransaction as never);
      if (outcome instanceof Response) throw new Error("An idempotent endpoint must return a Reply");
      await completeIdempotencyKey(statements, claim.recordId, outcome.status, outcome.body);
      return outcome;
    });
    return toResponse(result);
  } catch (error) {
    const response = errorResponse(error, context);
    const body = await response.clone().json();
    if (body?.error?.retryable === true) await releaseIdempotencyKey(claim.recordId);
    else await completeIdempotencyKey(statementsIn(db()), claim.recordId, response.status, body);
    return response;
  }
}
