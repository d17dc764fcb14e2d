// Reads that return PostgreSQL-rendered JSON (lib/wire/rendered-json.ts), made together.
import type { RenderedJson } from "@/lib/wire/rendered-json";

/** What each read came to, in order: the parsed object, or the code of the error it threw. */
export async function renderedOrErrorCode(reads: Promise<RenderedJson>[]): Promise<unknown[]> {
  const settled = await Promise.allSettled(reads);
  return settled.map((read) => (read.status === "fulfilled" ? JSON.parse(read.value.text) : (read.reason as { code: string }).code));
}
