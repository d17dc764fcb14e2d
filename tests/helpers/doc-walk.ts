// Walks written in the docs, run as written: the fenced sh/bash blocks of one section of a Markdown file (so the
// document and its test cannot drift), run in bash against the app on a real port.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The fenced sh/bash blocks of the section under `heading` in `file` (relative to the repository), in order. */
export function walkBlocks(file: string, heading: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  // The section ends at the next heading of any level (`## `, `### `); the walk's comments are single `#`.
  const rest = text.slice(start + heading.length);
  const end = rest.search(/^#{2,6} /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `script` in bash with PARTNER_API_URL pointing at `baseUrl`. */
export function runBash(script: string, baseUrl: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { env: { ...process.env, PARTNER_API_URL: baseUrl } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
