// oidc-provider is a Koa application that runs beside Next, in our own HTTP server (lib/oidc/mount.ts), never
// inside it: nothing Next bundles (a page, a route handler, proxy.ts, what they import) may reach it or Koa.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const files = new Map(readSourceFiles(["lib", "app"]).map(({ file, text }) => [file, text]));
for (const root of ["proxy.ts", "instrumentation.ts"]) files.set(root, readFileSync(path.join(ROOT, root), "utf8"));

const SERVER_ONLY_PACKAGES = /^(oidc-provider|koa)(\/|$)/;

function specifiers(text: string): string[] {
  return [...text.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);
}

function resolve(from: string, specifier: string): string | undefined {
  const imported = specifier.startsWith("@/") ? path.posix.normalize(specifier.slice(2)) : path.posix.join(path.posix.dirname(from), specifier);
  return [imported, `${imported}.ts`, `${imported}.tsx`, `${imported}/index.ts`].find((candidate) => files.has(candidate));
}

/** The files `entry` reaches through its imports, each with the path that led there. */
function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const specifier of specifiers(files.get(file)!)) {
      if (!specifier.startsWith(".") && !specifier.startsWith("@/")) continue;
      const target = resolve(file, specifier);
      if (target && !seen.has(target)) {
        seen.set(target, [...seen.get(file)!, target]);
        queue.push(target);
      }
    }
  }
  return seen;
}

describe("the sign-in provider stays out of Next's bundles", () => {
  const entries = [...files.keys()].filter((file) => file === "proxy.ts" || file === "instrumentation.ts" || /^app\/.*(page|route|layout|not-found)\.tsx?$/.test(file));

  it("finds the pages, including the sign-in pages", () => {
    expect(entries).toContain("app/sso/interaction/[uid]/page.tsx");
  });

  it("has no page, route handler, proxy.ts or instrumentation.ts import oidc-provider or Koa, directly or through lib/", () => {
    const offending: string[] = [];
    for (const entry of entries) {
      for (const [file, trail] of reachable(entry)) {
        if (specifiers(files.get(file)!).some((specifier) => SERVER_ONLY_PACKAGES.test(specifier))) offending.push(trail.join(" → "));
      }
    }
    expect(offending).toEqual([]);
  });

  it("would notice: the mount itself does reach oidc-provider", () => {
    const trails = [...reachable("lib/oidc/mount.ts").keys()];
    expect(trails.some((file) => specifiers(files.get(file)!).some((specifier) => SERVER_ONLY_PACKAGES.test(specifier)))).toBe(true);
  });
});
