// The project's own source, read for the tests that check it (the fast-lane fence, the source boundaries).
// Generated code (the Prisma client under lib/generated) is not ours to hold to their rules, so it is left out.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface SourceFile {
  /** The path from the project's root, with forward slashes (`lib/env.ts`). */
  file: string;
  text: string;
}

function sourcePaths(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourcePaths(relative);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [relative] : [];
  });
}

/** Every source file under `directories` (paths from the root), with its text. */
export function readSourceFiles(directories: readonly string[]): SourceFile[] {
  return directories.flatMap(sourcePaths).map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));
}
