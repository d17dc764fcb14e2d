// The Idempotency-Key steps of create endpoints (spec 4.12; the rules are in lib/idempotency). An idempotent
// endpoint's handler always runs in one transaction, key or not; with a key, a finished first request is
// replayed, and otherwise this one's outcome is recorded in the transaction of its writes. A final 4xx is kept
// (the same request would fail the same way); a retryable outcome (429, 5xx) releases the key so a retry can run.
import { prismaTransaction } from "../db";
import type { ErrorCode } from "../errors";
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
import { errorOutcome, noteErrorForLog } from "../wire/error-outcome";
import { jsonResponse } from "../wire/whole-body";
import type { Reply } from "./reply";
import { principalOf } from "./auth-kinds";
import type { Exchange, Step } from "./step";

const IDEMPOTENCY_FAILURES: ErrorCode[] = ["idempotency_key_malformed", "idempotency_key_reused", "idempotency_key_in_progress"];

export const idempotency: Step = {
  name: "replay or claim the Idempotency-Key",
  raises: ({ config }) => (config.idempotent ? IDEMPOTENCY_FAILURES : []),
  async run(exchange, next) {
    const { request, context } = exchange;
    const principal = principalOf(exchange.caller);
    // Keys are scoped to the caller's project and environment: a route without a bearer token has none.
    const key = exchange.config.idempotent && principal ? readIdempotencyKey(request) : null;
    if (key === null) return next();
    const claim = await claimIdempotencyKey(principal!, key, requestFingerprint(request.method, context.url.pathname, exchange.body));
    if (claim.kind === "replay") {
      exchange.response = replayed(exchange, claim.status, claim.body);
      return;
    }
    exchange.idempotencyClaim = claim;
    try {
      await next();
    } catch (error) {
      const outcome = errorOutcome(isClaimTakenOver(error) ? claimTakenOverError() : error, context);
      if (outcome.retryable) await releaseIdempotencyKey(claim);
      // Taken over meanwhile: the retry's outcome, not this failure, is the key's answer.
      else if (!(await completeIdempotencyKey(claim, outcome.response.status, outcome.body))) {
        exchange.response = errorOutcome(claimTakenOverError(), context).response;
        return;
      }
      exchange.response = outcome.response;
    }
  },
};

function replayed({ config, context }: Exchange, status: number, body: unknown): Response {
  const headers: Record<string, string> = { "Idempotent-Replayed": "true" };
  const secretFields = config.secretFields ?? [];
  // Only a success carried the secrets; a replayed error never had them.
  if (status < 400 && secretFields.length > 0) headers["Idempotent-Withheld-Fields"] = secretFields.join(", ");
  // A replayed error keeps its envelope, so it keeps the header that mirrors the envelope's correlation id.
  const replayedError = (body as { error?: { correlation_id?: unknown; code?: unknown } } | null)?.error;
  if (typeof replayedError?.correlation_id === "string") {
    headers["X-Service-Correlation-Id"] = replayedError.correlation_id;
    noteErrorForLog(context, replayedError.correlation_id, String(replayedError.code));
  }
  return jsonResponse(body, { status, headers });
}

export const transaction: Step = {
  name: "run the handler in one transaction",
  raises: () => [],
  async run(exchange, next) {
    if (!exchange.config.idempotent) return next();
    const kind = exchange.config.transactionKind ?? prismaTransaction;
    const claim = exchange.idempotencyClaim;
    await kind.run(async (transaction) => {
      exchange.transaction = transaction;
      await next();
      const outcome = asReply(exchange.reply);
      if (claim) await kind.write(transaction, idempotencyOutcomeStatement(claim, outcome.status, storable(outcome.body, exchange.config.secretFields ?? [])));
    });
  },
};

function asReply(outcome: Reply | Response | undefined): Reply {
  if (!outcome || outcome instanceof Response) throw new Error("An idempotent endpoint must return a Reply");
  return outcome;
}

/** The reply as its Idempotency-Key record keeps it: without the fields that carry a secret. */
function storable(body: unknown, secretFields: readonly string[]): unknown {
  if (secretFields.length === 0 || body === null || typeof body !== "object" || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([field]) => !secretFields.includes(field)));
}
