// Runs the admin CLI for tests: in this process by default (bin/command-line.ts, on this process's database
// pool), and as a real process, as an operator would, for the few tests of the process itself (exit codes,
// streams, ^C).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { runCommandLine, type TextOutput } from "@/bin/command-line";
import { db } from "@/lib/db";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test process's environment changed by `env`: a value replaces a variable, `undefined` removes it. */
function environmentWith(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", ...env };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv;
}

/** A command run in this process: its output so far, and its exit code once it ends. */
export interface RunningCli {
  output(): Omit<CliResult, "code">;
  /** Stops a command that runs until stopped (listen), as ^C does. */
  stop(): void;
  result: Promise<CliResult>;
}

/**
 * Starts `cli ...args` in this process with the environment changed by `env`. It uses this process's database
 * pool, and leaves it open: a test's own queries go on through it. So the database is always this process's;
 * a test that needs the CLI on another gives its file a database of its own (useIsolatedDatabase).
 */
export function startCli(env: Record<string, string | undefined>, ...args: string[]): RunningCli {
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== process.env.DATABASE_URL) {
    throw new Error("In process, the CLI uses this process's database: give the test file its own (useIsolatedDatabase) instead of DATABASE_URL");
  }
  let stdout = "";
  let stderr = "";
  const collect = (append: (text: string) => void): TextOutput => ({ write: (text: string) => append(text) });
  const controller = new AbortController();
  const result = runCommandLine(args, {
    stdout: collect((text) => (stdout += text)),
    stderr: collect((text) => (stderr += text)),
    env: environmentWith(env),
    signal: controller.signal,
    openDatabase: async () => ({ database: db(), close: async () => undefined }),
  }).then((code) => ({ code, stdout, stderr }));
  return { output: () => ({ stdout, stderr }), stop: () => controller.abort(), result };
}

/** `cli ...args` run in this process to its end, with the environment changed by `env` (see startCli). */
export function runCli(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  return startCli(env, ...args).result;
}

/** `npm run cli -- ...args` as a real process, with the test process's environment changed by `env`. */
export function spawnCli(env: Record<string, string | undefined>, ...args: string[]): ChildProcessWithoutNullStreams {
  return spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [path.join(ROOT, "bin", "cli.ts"), ...args], { cwd: ROOT, env: environmentWith(env) });
}

/** `npm run cli -- ...args` as a real process run to its end: its exit code and output. */
export function runCliProcess(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawnCli(env, ...args);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
