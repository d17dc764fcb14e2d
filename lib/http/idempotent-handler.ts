// The Idempotency-Key step of create endpoints (spec 4.12; the rules are in lib/idempotency). An idempotent
// endpoint's handler always runs in one transaction, key or not; with a key, the outcome is recorded in it.
import { prismaTransaction, type TransactionKind } from "../db";
import {
  claimIdempotencyKey,
  claimTakenOverError,
  completeIdempotencyKey,
  idempotencyOutcomeStatement,
  isClaimTakenOver,
  readIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from "../idempotency/idempotency";
import type { Tenant } from "../tenant";
import { errorOutcome, noteErrorForLog, toResponse, type Reply, type RequestContext } from "./request-context";

interface IdempotentInput {
  request: Request;
  context: RequestContext;
  body: unknown;
}

type Handler = (input: never) => Promise<Reply | Response> | Reply | Response;

export interface IdempotentOptions {
  /** The caller: keys are scoped to its project and environment. None on a route without a bearer token. */
  tenant: Tenant | undefined;
  /** The handler's transaction, when not Prisma's (the application create's batched transaction). */
  transactionKind?: TransactionKind<unknown>;
  /** The route's sub-limit: spent only by a request that will run the handler, never by a replay. */
  beforeHandler: () => Promise<void>;
  /** Top-level reply fields holding a secret shown once: never stored, so a replay goes without them. */
  secretFields: readonly string[];
}

function asReply(outcome: Reply | Response): Reply {
  if (outcome instanceof Response) throw new Error("An idempotent endpoint must return a Reply");
  return outcome;
}

/** The reply as its Idempotency-Key record keeps it: without the fields that carry a secret. */
function storable(body: unknown, secretFields: readonly string[]): unknown {
  if (secretFields.length === 0 || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([field]) => !secretFields.includes(field)));
}

/**
 * Runs an idempotent endpoint's handler under its Idempotency-Key: replays a finished first request, and
 * otherwise records this one's outcome in the transaction of its writes. A final 4xx is kept (the same request
 * would fail the same way); a retryable outcome (429, 5xx) releases the key so a retry can run.
 */
export async function runIdempotently(handler: Handler, input: IdempotentInput, options: IdempotentOptions): Promise<Response> {
  const { request, context } = input;
  const kind = options.transactionKind ?? prismaTransaction;
  const key = options.tenant ? readIdempotencyKey(request) : null;
  if (key === null) {
    await options.beforeHandler();
    return toResponse(await kind.run(async (transaction) => asReply(await handler({ ...input, transaction } as never))));
  }
  const claim = await claimIdempotencyKey(options.tenant!, key, requestFingerprint(request.method, context.url.pathname, input.body));
  if (claim.kind === "replay") {
    const headers: Record<string, string> = { "Idempotent-Replayed": "true" };
    // Only a success carried the secrets; a replayed error never had them.
    if (claim.status < 400 && options.secretFields.length > 0) headers["Idempotent-Withheld-Fields"] = options.secretFields.join(", ");
    // A replayed error keeps its envelope, so it keeps the header that mirrors the envelope's correlation id.
    const replayedError = (claim.body as { error?: { correlation_id?: unknown; code?: unknown } } | null)?.error;
    if (typeof replayedError?.correlation_id === "string") {
      headers["X-Service-Correlation-Id"] = replayedError.correlation_id;
      noteErrorForLog(context, replayedError.correlation_id, String(replayedError.code));
    }
    return Response.json(claim.body, { status: claim.status, headers });
  }
  try {
    await options.beforeHandler();
    const result = await kind.run(async (transaction) => {
      const outcome = asReply(await handler({ ...input, transaction } as never));
      await kind.write(transaction, idempotencyOutcomeStatement(claim, outcome.status, storable(outcome.body, options.secretFields)));
      return outcome;
    });
    return toResponse(result);
  } catch (error) {
    const outcome = errorOutcome(isClaimTakenOver(error) ? claimTakenOverError() : error, context);
    if (outcome.retryable) await releaseIdempotencyKey(claim);
    // Taken over meanwhile: the retry's outcome, not this failure, is the key's answer.
    else if (!(await completeIdempotencyKey(claim, outcome.response.status, outcome.body))) return errorOutcome(claimTakenOverError(), context).response;
    return outcome.response;
  }
}
