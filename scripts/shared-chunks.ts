// The production build's server chunks, each loaded once. Turbopack writes the same chunk under several names, one
// per group of routes that uses it (the chunk holding lib/ came 17 times in November 2026, byte for byte the same
// but for its source-map comment). Node loads each name as a module of its own, and V8 keeps every copy's source
// text (in UTF-16: about 1.1 MB a copy) and parse, though the modules inside register once with Turbopack's runtime
// (the first registration wins). So each name resolves to the first file of its content, and Node's module cache
// answers the rest (docs/performance.md, "Memory").
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import Module from "node:module";
import path from "node:path";

const SOURCE_MAP_COMMENT = /\/\/# sourceMappingURL=[^\n]*\n?$/;

function chunkFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return chunkFiles(full);
    return entry.name.endsWith(".js") ? [full] : [];
  });
}

/** Each chunk under `directory` that repeats an earlier one (by name), mapped to that earlier one. */
export function repeatedChunks(directory: string): Map<string, string> {
  // Only files of the same size can be the same, so most are never read.
  const bySize = new Map<number, string[]>();
  for (const file of chunkFiles(directory).sort()) {
    const size = statSync(file).size;
    bySize.set(size, [...(bySize.get(size) ?? []), file]);
  }
  const repeats = new Map<string, string>();
  for (const files of bySize.values()) {
    if (files.length < 2) continue;
    const firstOfContent = new Map<string, string>();
    for (const file of files) {
      const content = createHash("sha256").update(readFileSync(file, "utf8").replace(SOURCE_MAP_COMMENT, "")).digest("hex");
      const first = firstOfContent.get(content);
      if (first) repeats.set(file, first);
      else firstOfContent.set(content, file);
    }
  }
  return repeats;
}

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/** From now on, requiring a repeated chunk under `directory` loads the first of its content; answers how many repeat. */
export function loadRepeatedChunksOnce(directory: string): number {
  const repeats = repeatedChunks(directory);
  if (repeats.size === 0) return 0;
  const loader = Module as unknown as { _resolveFilename: ResolveFilename };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request, parent, isMain, options) {
    const resolved = resolve.call(this, request, parent, isMain, options);
    return repeats.get(resolved) ?? resolved;
  };
  return repeats.size;
}
