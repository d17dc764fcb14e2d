// Structured JSON logs, one object per line on stdout. Never pass secrets, tokens or bodies here.
import { config } from "./env";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

function write(level: Level, message: string, fields: Record<string, unknown>): void {
  if (LEVELS[level] < LEVELS[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
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
