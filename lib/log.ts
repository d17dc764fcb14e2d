// Structured JSON logs, one object per line. Never pass secrets, tokens or bodies here.
import { config } from "./env";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
type Level = Exclude<LogLevel, "silent">;

export interface LogEntry {
  level: Level;
  time: string;
  msg: string;
  [field: string]: unknown;
}

interface LoggerSettings {
  level?: LogLevel;
  /** Where entries go; by default stdout, and stderr for warnings and errors. */
  sink?: (entry: LogEntry) => void;
}

const defaultSink = (entry: LogEntry): void => {
  const line = `${JSON.stringify(entry)}\n`;
  if (entry.level === "error" || entry.level === "warn") process.stderr.write(line);
  else process.stdout.write(line);
};

let settings: LoggerSettings = {};

/** Overrides the configured level and destination (tests capture entries this way); call with {} to reset. */
export function configureLogger(next: LoggerSettings): void {
  settings = next;
}

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (LEVELS[level] < LEVELS[settings.level ?? config().LOG_LEVEL]) return;
  (settings.sink ?? defaultSink)({ level, time: new Date().toISOString(), msg: message, ...fields });
}

export const log = {
  debug: (message: string, fields: Record<string, unknown> = {}) => write("debug", message, fields),
  info: (message: string, fields: Record<string, unknown> = {}) => write("info", message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write("warn", message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write("error", message, fields),
};

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, error_name: error.name, stack: error.stack };
  return { error: String(error) };
}
