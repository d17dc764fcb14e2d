// Every page's headers, for every page there is: the list is read from app/ (each page.tsx, and each route
// handler, whose HTML answers are checked), so a page added tomorrow is held to the same rule. Each has a
// Content-Security-Policy with `frame-ancestors`: 'none', but for the hosted journey ('self', and the page that
// started it: tests/api/site/apply-widget.test.ts). Pages are served by Next through proxy.ts, which is called
// here as Next calls it, and whose matcher is checked with Next's own; route handlers are called over HTTP. The
// hosted pages' per-address bucket is here too. The browser checks (no policy violation on the payment page, the
// API reference, the apply.js demo) are tests/e2e.
import { readdirSync } from "node:fs";
import path from "node:path";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { config as proxyConfig, proxy } from "@/proxy";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectErrorPage } from "../../helpers/http";

const APP = path.resolve(import.meta.dirname, "..", "..", "..", "app");
const SAMPLES: Record<string, string> = { token: "c".repeat(32), step: "company", uid: "i".repeat(43) };

/** The URL of every `file` (page.tsx, route.ts) under app/: route groups left out, each parameter a sample value. */
function urlsOf(file: string, directory = APP, segments: string[] = []): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      const segment = /^\(.*\)$/.test(entry.name) ? [] : [entry.name.replace(/^\[+(?:\.\.\.)?(\w+)\]+$/, (_, name: string) => SAMPLES[name] ?? name)];
      return urlsOf(file, path.join(directory, entry.name), [...segments, ...segment]);
    }
    return entry.name === file ? [`/${segments.join("/")}`] : [];
  });
}

const PAGES = urlsOf("page.tsx").sort();
const JOURNEY_PAGES = PAGES.filter((url) => url.startsWith("/apply/"));

const policyDirectives = (policy: string | null) => new Map((policy ?? "").split("; ").filter(Boolean).map((directive) => [directive.split(" ")[0]!, directive]));
const view = (url: string, headers: Record<string, string> = {}) => proxy(new NextRequest(`http://localhost:3000${url}`, { headers }));

// The bucket test below speaks for an address of its own, as a reverse proxy would name it.
process.env.TRUSTED_PROXY_HEADER = "x-forwarded-for";

let server: AppServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

describe("every page", () => {
  it("is found on disk: the site (its Apply page too), the borrower area, the dashboard, the API reference, the apply.js demo, the journey, the payment page and the sign-in page", () => {
    expect(PAGES).toEqual([
      "/",
      "/about",
      "/account",
      "/account/sign-in",
      "/account/signed-out",
      "/apply",
      `/apply/${SAMPLES.token}`,
      `/apply/${SAMPLES.token}/company`,
      "/business-loan-terms",
      "/complaints",
      "/contact",
      "/cookies",
      "/dashboard",
      "/dashboard/project/environment",
      "/dashboard/project/environment/accounts",
      "/dashboard/project/environment/accounts/id",
      "/dashboard/project/environment/activity",
      "/dashboard/project/environment/applications",
      "/dashboard/project/environment/applications/id",
      "/dashboard/project/environment/events",
      "/dashboard/project/environment/events/id",
      "/dashboard/project/environment/introductions",
      "/dashboard/project/environment/keys",
      "/dashboard/project/environment/keys/id/revoke",
      "/dashboard/project/environment/keys/revoke-tokens",
      "/dashboard/project/environment/payouts",
      "/dashboard/project/environment/payouts/id",
      "/dashboard/project/environment/sub-accounts",
      "/dashboard/project/environment/team",
      "/dashboard/project/environment/team/user/remove",
      "/dashboard/project/environment/usage",
      "/dashboard/project/environment/webhooks",
      "/dashboard/project/environment/webhooks/id",
      "/dashboard/sign-in",
      "/docs/api",
      "/eligibility",
      "/faq",
      "/how-to-apply",
      "/loyalty",
      "/partners",
      `/pay/${SAMPLES.token}`,
      "/privacy",
      "/products",
      "/quote",
      `/sso/interaction/${SAMPLES.uid}`,
      "/terms",
      "/v1/demo",
    ]);
  });

  it.each([...PAGES, "/no-such-page"])("%s passes through the proxy and gets a nonce policy that says who may frame it", async (url) => {
    freezeClock("2033-01-01T00:00:00.000Z");
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url })).toBe(true);
    const response = await view(url);
    const directives = policyDirectives(response.headers.get("content-security-policy"));
    expect(directives.get("frame-ancestors")).toBe(JOURNEY_PAGES.includes(url) ? "frame-ancestors 'self'" : "frame-ancestors 'none'");
    expect(directives.get("script-src")).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'/);
    expect(directives.get("object-src")).toBe("object-src 'none'");
    expect(directives.get("base-uri")).toBe("base-uri 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("keeps inline styles to the API reference, whose renderer writes its own, and lets the apply.js demo reach the journey", async () => {
    const styles = async (url: string) => policyDirectives((await view(url)).headers.get("content-security-policy")).get("style-src");
    expect(await styles("/docs/api")).toBe("style-src 'self' 'unsafe-inline'");
    for (const url of PAGES.filter((page) => page !== "/docs/api")) expect(await styles(url)).toBe("style-src 'self'");
    const demo = policyDirectives((await view("/v1/demo")).headers.get("content-security-policy"));
    expect([demo.get("connect-src"), demo.get("frame-src")]).toEqual(["connect-src 'self' http://localhost:3000", "frame-src 'self' http://localhost:3000"]);
  });
});

describe("the dashboard's pages", () => {
  it("let their Sign in and Sign out forms go on to the sign-in provider, are never cached, and forget a shown-once secret and a refused form after one view", async () => {
    const page = await view("/dashboard/proj_00000000000000000000000000/sandbox/keys", { cookie: "dash_shown_once=sealed; dash_form_errors=sealed" });
    expect(policyDirectives(page.headers.get("content-security-policy")).get("form-action")).toBe(`form-action 'self' ${new URL(process.env.SSO_URL ?? "http://localhost:3000/sso").origin}`);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.getSetCookie()).toContain("dash_shown_once=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Strict");
    expect(page.headers.getSetCookie()).toContain("dash_form_errors=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Strict");
    expect((await view("/dashboard")).headers.getSetCookie().filter((cookie) => cookie.startsWith("dash_shown_once"))).toEqual([]);
  });
});

describe("every route handler that answers HTML", () => {
  const routes = urlsOf("route.ts").sort();

  it("is kept off the proxy unless it is one of a hosted page's or the dashboard's own forms or checks: a hop on the API would cost every request", () => {
    const proxied = routes.filter((url) => unstable_doesMiddlewareMatch({ config: proxyConfig, url }));
    expect(proxied).toEqual([
      `/apply/${SAMPLES.token}/company/form`,
      `/apply/${SAMPLES.token}/status`,
      "/apply/start",
      "/dashboard/project/environment/applications/id/release-decision",
      "/dashboard/project/environment/keys/create",
      "/dashboard/project/environment/keys/id/origins",
      "/dashboard/project/environment/keys/id/revoke/confirm",
      "/dashboard/project/environment/keys/id/roll",
      "/dashboard/project/environment/keys/revoke-tokens/confirm",
      "/dashboard/project/environment/sub-accounts/create",
      "/dashboard/project/environment/team/invitations/invitation/cancel",
      "/dashboard/project/environment/team/invite",
      "/dashboard/project/environment/team/user/remove/confirm",
      "/dashboard/project/environment/team/user/role",
      "/dashboard/project/environment/webhooks/create",
      "/dashboard/project/environment/webhooks/id/disable",
      "/dashboard/project/environment/webhooks/id/enable",
      "/dashboard/project/environment/webhooks/id/recover",
      "/dashboard/project/environment/webhooks/id/replay",
      "/dashboard/project/environment/webhooks/id/roll",
      "/dashboard/project/environment/webhooks/id/update",
      `/pay/${SAMPLES.token}/bank`,
    ]);
  });

  it("answers it with a policy that lets nobody frame it", async () => {
    const html: string[] = [];
    for (const url of routes) {
      for (const method of ["GET", "POST"]) {
        const response = await fetch(`${server.url}${url}`, { method, redirect: "manual", ...(method === "POST" ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" } : {}) });
        if (!response.headers.get("content-type")?.startsWith("text/html")) continue;
        html.push(`${method} ${url}`);
        expect(policyDirectives(response.headers.get("content-security-policy")).get("frame-ancestors"), `${method} ${url}`).toBe("frame-ancestors 'none'");
      }
    }
    // The payment page's bank answers its refusals as pages (here: a token that names no link).
    expect(html).toContain(`POST /pay/${SAMPLES.token}/bank`);
  });
});

describe("the hosted pages' per-address bucket", () => {
  const from = { "x-forwarded-for": "203.0.113.50" };

  it("lets an address view 60 hosted pages at once, then answers 429 with Retry-After as a page until it refills", async () => {
    const clock = freezeClock("2033-02-01T00:00:00.000Z");
    const hosted = [`/pay/${SAMPLES.token}`, `/apply/${SAMPLES.token}`, `/apply/${SAMPLES.token}/company`];
    for (let index = 0; index < 60; index += 1) expect((await view(hosted[index % 3]!, from)).status).toBe(200);
    for (const url of hosted) {
      const refused = await view(url, from);
      const page = await expectErrorPage(refused, 429, "Too many requests");
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(page).toContain("Wait 1 second, then reload the page.");
    }
    // The rest of the site, and the journey's forms and status checks (buckets of their own), are not hosted pages.
    for (const url of ["/", "/docs/api", "/v1/demo", `/apply/${SAMPLES.token}/status`]) expect((await view(url, from)).status).toBe(200);

    clock.advance(1_000);
    expect((await view(hosted[0]!, from)).status).toBe(200);
    expect((await view(hosted[0]!, from)).status).toBe(200);
    expect((await view(hosted[0]!, from)).status).toBe(429);
  });
});
