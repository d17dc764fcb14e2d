// The production server loads each distinct server chunk once (scripts/shared-chunks.ts): a chunk repeated under
// another name, the same but for its source-map comment, resolves to the first of its content; a chunk of the same
// size with other content is its own.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRepeatedChunksOnce, repeatedChunks } from "../../scripts/shared-chunks";

function buildDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), "chunks-"));
  mkdirSync(path.join(directory, "ssr"));
  const chunk = (body: string, name: string) => `module.exports=[${body}];\n\n//# sourceMappingURL=${name}.map\n`;
  writeFileSync(path.join(directory, "_aaaa._.js"), chunk("1,{loaded:Math.random()}", "_aaaa._.js"));
  writeFileSync(path.join(directory, "_bbbb._.js"), chunk("1,{loaded:Math.random()}", "_bbbb._.js"));
  writeFileSync(path.join(directory, "ssr", "_cccc._.js"), chunk("1,{loaded:Math.random()}", "_cccc._.js"));
  // The same size, another content.
  writeFileSync(path.join(directory, "_dddd._.js"), chunk("2,{loaded:Math.random()}", "_dddd._.js"));
  writeFileSync(path.join(directory, "_aaaa._.js.map"), "{}");
  return directory;
}

describe("server chunks repeated under other names", () => {
  it("are mapped to the first file of their content, and nothing else is", () => {
    const directory = buildDirectory();
    const repeats = [...repeatedChunks(directory)].map(([repeat, first]) => [path.relative(directory, repeat), path.relative(directory, first)]);
    expect(repeats.sort()).toEqual([
      ["_bbbb._.js", "_aaaa._.js"],
      ["ssr/_cccc._.js", "_aaaa._.js"],
    ]);
  });

  it("load as the first of their content once the server has said so", () => {
    const directory = buildDirectory();
    const load = createRequire(path.join(directory, "index.js"));
    const before = [load("./_aaaa._.js"), load("./_bbbb._.js")];
    expect(before[0]).not.toBe(before[1]);

    const fresh = buildDirectory();
    expect(loadRepeatedChunksOnce(fresh)).toBe(2);
    const require = createRequire(path.join(fresh, "index.js"));
    const first = require("./_aaaa._.js");
    expect(require("./_bbbb._.js")).toBe(first);
    expect(require("./ssr/_cccc._.js")).toBe(first);
    expect(require("./_dddd._.js")).not.toBe(first);
  });
});
