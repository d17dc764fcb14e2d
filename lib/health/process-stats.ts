// The process's own memory and event-loop delay, for GET /healthz/internal: what a soak run (scripts/soak.ts)
// samples to see a leak or a loop that slows over hours. The delay is measured from the first read on, and each
// read reports the delay since the previous one.
import { monitorEventLoopDelay } from "node:perf_hooks";

let histogram: ReturnType<typeof monitorEventLoopDelay> | undefined;

const MB = 1024 * 1024;
const round = (value: number) => Math.round(value * 10) / 10;

export interface ProcessStats {
  rss_mb: number;
  heap_used_mb: number;
  /** What V8 has reserved for its heap, used or not: it grows when V8 decides the heap needs room. */
  heap_total_mb: number;
  /** Memory outside the V8 heap held by JavaScript objects (Buffers, ArrayBuffers). */
  external_mb: number;
  /** Since the previous read (or the first read's start): 0 until one interval has passed. */
  event_loop_delay_ms: { p50: number; p99: number; max: number };
}

export function readProcessStats(): ProcessStats {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
  }
  const memory = process.memoryUsage();
  const delay = histogram.count > 0 ? { p50: round(histogram.percentile(50) / 1e6), p99: round(histogram.percentile(99) / 1e6), max: round(histogram.max / 1e6) } : { p50: 0, p99: 0, max: 0 };
  histogram.reset();
  return {
    rss_mb: round(memory.rss / MB),
    heap_used_mb: round(memory.heapUsed / MB),
    heap_total_mb: round(memory.heapTotal / MB),
    external_mb: round(memory.external / MB),
    event_loop_delay_ms: delay,
  };
}
