// The health objects as the health endpoints answer them (spec 2.10; lib/health/health.ts).
import { z } from "zod";
import { text, timestamp } from "../wire/response-schema";

export const healthSchema = z
  .strictObject({
    status: z.enum(["ok", "degraded"]),
    app: text(),
    db: z.strictObject({ up: z.boolean(), latencyMs: z.number().nullable() }),
    migrations: z.strictObject({ applied: z.int(), onDisk: z.int(), inSync: z.boolean() }),
    queue: z.strictObject({ reachable: z.boolean(), pending: z.int() }),
    time: timestamp(),
  })
  .meta({ id: "Health", description: "Platform health (spec 2.10): `ok` when the database answers, every migration is applied and the queue is reachable." });

export const livenessSchema = z.strictObject({ status: z.literal("ok") }).meta({ id: "Liveness" });

export const internalHealthSchema = z
  .strictObject({
    ratelimit: z.strictObject({ backend: z.enum(["memory", "redis", "upstash"]), reachable: z.boolean(), fallback_count: z.int() }),
    event_streams: z.strictObject({ open: z.int(), reads: z.int() }),
    process: z.strictObject({
      rss_mb: z.number(),
      heap_used_mb: z.number(),
      heap_total_mb: z.number(),
      external_mb: z.number(),
      event_loop_delay_ms: z.strictObject({ p50: z.number(), p99: z.number(), max: z.number() }).describe("Since the previous read of this endpoint."),
    }),
  })
  .meta({ id: "InternalHealth" });
