import { configureLogger, type LogEntry } from "@/lib/log";

/** Collects log entries while `work` runs; `work` sees them as they arrive, to wait for one. */
export async function captureLogs<T>(work: (entries: readonly LogEntry[]) => Promise<T>): Promise<{ result: T; entries: LogEntry[] }> {
  const entries: LogEntry[] = [];
  configureLogger({ level: "debug", sink: (entry) => entries.push(entry) });
  try {
    return { result: await work(entries), entries };
  } finally {
    configureLogger({});
  }
}
