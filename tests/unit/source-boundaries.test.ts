// Boundaries the source keeps, checked by reading it: lib/ never imports from inngest/ (the functions there are
// thin callers of lib/, not the other way round); domains never import the route builder (lib/http), only the
// wire helpers (lib/wire); configuration is read from the environment only in
// lib/env.ts; strings from outside are built on requestString (lib/wire/request-string.ts), and pages read their
// address through it (lib/wire/page-values.ts); and lib/ takes the
// time from the clock (lib/clock.ts), so tests can freeze it, and reads a tenant's clock only where a unit of work
// starts (a service takes the time it needs from its caller). The layers (docs/architecture.md, "Background
// work"): no import circle, within a folder or across two; only the composition root of background work and its
// few callers import the scheduler (lib/jobs); and the kernel modules import no domain. scripts/ and tests/ are outside these
// rules: they set up the environment the app reads.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";

/**
 * Strings that do not come from a request or the admin CLI, so need not be built on requestString: the
 * configuration, a Companies House answer, the claims of an access token we signed, and the replies we write.
 */
const NOT_INPUT_FILES = new Set(["lib/env.ts", "lib/registry/companies-house-registry.ts", "lib/oauth/access-tokens.ts", "lib/wire/request-string.ts", "lib/wire/response-schema.ts"]);

/** The Redis store reads Date as @upstash/ratelimit does: its windows, reset instants and every process's slots are on that clock. */
const REAL_TIME_FILES = new Set(["lib/ratelimit/redis-store.ts"]);

const files = readSourceFiles(["lib", "app", "bin", "inngest"]);
const sourcePaths = new Set(files.map(({ file }) => file));

/**
 * Who may import the scheduler from outside lib/jobs: the composition root that hands it the catalogue, the
 * health check (its queue count), and the Inngest functions with the route that serves them.
 */
const SCHEDULER_CALLERS = ["lib/background/", "lib/health/", "inngest/", "app/api/inngest/route.ts"];

/**
 * Where lib/ may read a tenant's clock (tenantNow, tenantClock): where a unit of work starts, so everything below
 * takes one time from its caller. A route handler passes the request's `now`; these start work of their own.
 */
const TENANT_CLOCK_READERS: Record<string, string> = {
  "lib/tenant-clock.ts": "where a tenant's clock is defined",
  "lib/applications/background.ts": "the expiry sweep's operation: one read per application expired",
  "lib/decisions/background.ts": "the decisioning operation (the sweep's, and the one a submission starts): one read per decision",
  "lib/accounts/background.ts": "the collections sweep's operation: one read per account serviced",
  "lib/revenue-share/background.ts": "the payout sweep's operation: one read per sub-account paid out",
  "lib/journey/journey.ts": "openJourney: a handoff token names its tenant only once its application is read; the Journey carries the time",
  "lib/accounts/payment-links.ts": "the payment page and its sandbox bank: a link's token names its tenant only once its payment is read",
  "lib/seed/seed-applications.ts": "the demo seed, run by the CLI's seed and the dev server's start: one time for all its moves",
};

/** Modules every domain may build on, so none of them may import a domain (a folder under lib/). */
const KERNEL_MODULES = ["lib/tenant.ts", "lib/tenant-clock.ts", "lib/commit-signals.ts", "lib/background-operation.ts"];

/** The project files a module imports (static, dynamic and re-exports), as paths from the root; packages are left out. */
function importedPaths(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1]!);
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith("@/")) return [path.posix.normalize(specifier.slice(2))];
    if (specifier.startsWith(".")) return [path.posix.join(path.posix.dirname(file), specifier)];
    return [];
  });
}

/** The source file an imported path names (`lib/log` is lib/log.ts), or none for anything else (a stylesheet). */
function resolveSource(imported: string): string | undefined {
  return [imported, `${imported}.ts`, `${imported}.tsx`, `${imported}/index.ts`, `${imported}/index.tsx`].find((candidate) => sourcePaths.has(candidate));
}

/** Each source file with the source files it imports. */
const importGraph = new Map(
  files.map(({ file, text }) => [file, [...new Set(importedPaths(file, text).flatMap((imported) => resolveSource(imported) ?? []))]] as const),
);

/** The graph's strongly connected components of more than one file: its import circles (Tarjan's algorithm). */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const imported of graph.get(file) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(imported)!));
      } else if (onStack.has(imported)) lowLink.set(file, Math.min(lowLink.get(file)!, index.get(imported)!));
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe("source boundaries", () => {
  it("finds the source to check", () => {
    expect(files.map(({ file }) => file)).toEqual(expect.arrayContaining(["lib/env.ts", "lib/jobs/driver.ts", "inngest/functions.ts", "bin/cli.ts"]));
  });

  it("has no module under lib/ import from inngest/", () => {
    const offending = files
      .filter(({ file }) => file.startsWith("lib/"))
      .flatMap(({ file, text }) => importedPaths(file, text).filter((imported) => imported === "inngest" || imported.startsWith("inngest/")).map((imported) => `${file} imports ${imported}`));
    expect(offending).toEqual([]);
  });

  it("has no domain module import the route builder (lib/http): domains speak to the wire through lib/wire only", () => {
    // lib/openapi documents the builder's declarations, so it reads them.
    const offending = files
      .filter(({ file }) => file.startsWith("lib/") && !file.startsWith("lib/http/") && !file.startsWith("lib/openapi/"))
      .flatMap(({ file, text }) => importedPaths(file, text).filter((imported) => imported.startsWith("lib/http/")).map((imported) => `${file} imports ${imported}`));
    expect(offending).toEqual([]);
  });

  it("reads the environment only in lib/env.ts", () => {
    const offending = files.filter(({ file, text }) => file !== "lib/env.ts" && /\bprocess\s*(\.\s*env\b|\[\s*["']env["']\s*\])/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it("builds every string from outside on requestString, so none PostgreSQL cannot store reaches a query", () => {
    // z.url() accepts a NUL in a path, so it is only allowed behind requestString's pipe.
    const bareString = /\bz\s*\.\s*string\s*\(|(?<!\.pipe\(\s*)\bz\s*\.\s*url\s*\(/;
    const offending = files.filter(({ file, text }) => /^(lib|app)\//.test(file) && !NOT_INPUT_FILES.has(file) && bareString.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  // The dashboard's read sections refuse what their address names wrongly with a 404 rather than ignoring it
  // (app/(dashboard)/dashboard/_components/section-page.ts): their params through readPageValues, their query
  // through its schema, built on requestString and piped into the partner API's list query.
  it("reads a page's address (params, searchParams) only through readPageValues or the dashboard's readers on it, on the same string rule", () => {
    const pages = files.filter(({ file }) => file.startsWith("app/") && file.endsWith("/page.tsx"));
    expect(pages.map(({ file }) => file)).toEqual(expect.arrayContaining(["app/(apply)/apply/[token]/page.tsx", "app/(apply)/pay/[token]/page.tsx", "app/(widget)/v1/demo/page.tsx"]));
    const offending = pages.filter(({ text }) => {
      const reads = text.match(/\bawait\s+(params|searchParams)\b/g)?.length ?? 0;
      const checked = text.match(/\b(readPageValues|pageParamsOrNotFound|queryOrNotFound)\([^;]*?\bawait\s+(params|searchParams)\b/g)?.length ?? 0;
      return reads !== checked || /\(await\s+(params|searchParams)\)\./.test(text);
    });
    expect(offending.map(({ file }) => file)).toEqual([]);
  });

  it("takes the time from the clock, not Date.now(), outside the Redis rate-limit store", () => {
    const offending = files.filter(({ file, text }) => !REAL_TIME_FILES.has(file) && /\bDate\.now\s*\(/.test(text)).map(({ file }) => file);
    expect(offending).toEqual([]);
  });

  it("reads a tenant's clock in lib/ only where a unit of work starts: services take the time from their caller", () => {
    const readsTenantClock = /\btenant(?:Now|Clock)\s*\(/;
    const readers = files.filter(({ file, text }) => file.startsWith("lib/") && readsTenantClock.test(text)).map(({ file }) => file);
    expect(readers.filter((file) => !(file in TENANT_CLOCK_READERS))).toEqual([]);
    // An entry that no longer reads the clock leaves the list, so it stays the list of where time is read.
    expect(Object.keys(TENANT_CLOCK_READERS).filter((file) => !readers.includes(file))).toEqual([]);
  });

  it("has no import circle", () => {
    expect(importCircles(importGraph)).toEqual([]);
  });

  it("has lib/jobs imported from outside only by the composition root, the health check and the Inngest entry points", () => {
    const offending = [...importGraph].flatMap(([file, imported]) =>
      file.startsWith("lib/jobs/") || SCHEDULER_CALLERS.some((caller) => file.startsWith(caller))
        ? []
        : imported.filter((target) => target.startsWith("lib/jobs/")).map((target) => `${file} imports ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("has no kernel module import a domain", () => {
    expect(KERNEL_MODULES.filter((file) => !importGraph.has(file))).toEqual([]);
    const offending = KERNEL_MODULES.flatMap((file) =>
      (importGraph.get(file) ?? []).filter((target) => !/^lib\/[^/]+$/.test(target) && !target.startsWith("lib/generated/")).map((target) => `${file} imports ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
