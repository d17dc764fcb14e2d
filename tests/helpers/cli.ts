// Runs the admin CLI as a real process, as an operator would, and collects its exit code and output.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run cli -- ...args` with the test process's environment (the test database included) changed by `env`:
 * a value replaces a variable, `undefined` removes it.
 */
export function runCli(env: Record<string, string | undefined>, ...args: string[]): Promise<CliResult> {
  const merged: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: "silent", ...env };
  const childEnv = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [path.join(ROOT, "bin", "cli.ts"), ...args], { cwd: ROOT, env: childEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
