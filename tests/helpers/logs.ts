import { configureLogger, type LogEntry } from "@/lib/log";

/** Collects log entries while `work` runs. */
export async function captureLogs<T>(work: () => Promise<T>): Promise<{ result: T; entries: LogEntry[] }> {
  const entries: LogEntry[] = [];
  configureLogger({ level: "debug", sink: (entry) => entries.push(entry) });
  try {
    return { result: await work(), entries };
  } finally {
    configureLogger({});
  }
}
