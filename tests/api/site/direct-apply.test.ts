// The site's Apply page's form over HTTP (POST /apply/start, docs/apply-directly.md): a good post starts a live
// application for the platform's own project through the apply widget's service and sends the browser into its
// journey (303 to the handoff URL); each refused answer comes back to the form (303 to /apply?check=1) with its
// message, carried in a short-lived cookie; unknown fields and a missing or mismatched CSRF token are refused as
// pages. The platform's own publishable key starts applications from the site's origin alone. Every apply link
// the assistant and the public MCP server give is the Apply page's.
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerQuestion } from "@/lib/assistant/answer";
import { freezeClock, restoreClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { decodeFormState, FORM_STATE_COOKIE } from "@/lib/direct-apply/form-state";
import { directApplyUrl } from "@/lib/direct-apply/links";
import { AMOUNT_RANGE_MESSAGE, poundsToPence, TERM_RANGE_MESSAGE, type DirectApplyField } from "@/lib/direct-apply/schemas";
import { ensureSiteProject, SITE_PROJECT_NAME } from "@/lib/direct-apply/site-project";
import { config } from "@/lib/env";
import { hashSecret } from "@/lib/keys/secrets";
import { PUBLIC_TOOLS } from "@/lib/mcp/public-tools";
import { CSRF_COOKIE } from "@/lib/wire/csrf";
import { proxy } from "@/proxy";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectErrorPage } from "../../helpers/http";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  restoreClock();
  await server?.close();
});

// Each test an hour of its own: the address's bucket of form posts is full at the start of each.
let hour = 0;
beforeEach(() => {
  hour += 1;
  freezeClock(new Date(Date.UTC(2033, 0, 1, hour)));
});

// Well-formed, as the proxy makes them: 43 base64url characters.
const TOKEN = "a-csrf-token-of-the-visitors-own-browser-43";
const GOOD = { company_number: "12990042", amount: "25,000", term_months: "12", email: "ada@example.co.uk" };

function post(fields: Record<string, string>, options: { cookie?: string | null; origin?: string | null } = {}): Promise<Response> {
  const cookie = options.cookie === undefined ? `${CSRF_COOKIE}=${TOKEN}` : options.cookie;
  const origin = options.origin === undefined ? new URL(config().BASE_URL).origin : options.origin;
  return fetch(`${server.url}/apply/start`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** The refusals a post sent back to the form with. */
async function refusalsOf(response: Response) {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe("/apply?check=1");
  const setCookie = response.headers.get("set-cookie")!;
  expect(setCookie).toMatch(new RegExp(`^${FORM_STATE_COOKIE}=[A-Za-z0-9_-]+; Path=/apply; Max-Age=600; HttpOnly; SameSite=Strict$`));
  const state = decodeFormState(/^[^=]+=([^;]*)/.exec(setCookie)![1]);
  expect(state).not.toBeNull();
  return state!;
}

describe("POST /apply/start", () => {
  it("starts a live application for the platform's own project and sends the browser into its journey", async () => {
    const response = await post({ csrf_token: TOKEN, ...GOOD });
    expect(response.status).toBe(303);
    const location = response.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^${config().APPLY_URL}/apply/[0-9A-Za-z]{16,64}$`));
    expect(response.headers.get("set-cookie")).toBe(`${FORM_STATE_COOKIE}=; Path=/apply; Max-Age=0; HttpOnly; SameSite=Strict`);
    const token = location.split("/").pop()!;
    const application = await db().application.findUniqueOrThrow({ where: { handoffToken: token }, include: { project: true } });
    expect(application).toMatchObject({ environment: "live", amountPence: 2_500_000, termMonths: 12, companyNumber: "12990042", applicantEmail: "ada@example.co.uk", embeddingOrigin: null });
    expect(application.project.name).toBe(SITE_PROJECT_NAME);
    expect(application.project.sitePublishableKey).toMatch(/^pk_live_/);
  });

  it("reads a company number as people type it, and pounds with or without commas, a pound sign or pence", async () => {
    const response = await post({ csrf_token: TOKEN, ...GOOD, company_number: " sc 123456 ", amount: "£1,000.50" });
    expect(response.status).toBe(303);
    const token = response.headers.get("location")!.split("/").pop()!;
    expect(await db().application.findUniqueOrThrow({ where: { handoffToken: token } })).toMatchObject({ companyNumber: "SC123456", amountPence: 100_050 });
    expect([poundsToPence("25000"), poundsToPence("25,000.5"), poundsToPence("2,50,00"), poundsToPence("1e5"), poundsToPence("-100")]).toEqual([2_500_000, 2_500_050, null, null, null]);
  });

  const refusals: Array<[DirectApplyField, string, string]> = [
    ["company_number", "", "Enter your company number"],
    ["company_number", "1234567", "Enter your company number as it is shown at Companies House, like 12345678 or SC123456"],
    ["amount", "", "Enter how much you want to borrow"],
    ["amount", "lots", "Amount must be a number of pounds, like 25,000"],
    ["amount", "999.99", AMOUNT_RANGE_MESSAGE],
    ["amount", "250,000.01", AMOUNT_RANGE_MESSAGE],
    ["term_months", "", "Enter how many months you want to repay over"],
    ["term_months", "12.5", "Term must be a whole number of months, like 12"],
    ["term_months", "2", TERM_RANGE_MESSAGE],
    ["term_months", "61", TERM_RANGE_MESSAGE],
    ["email", "", "Enter your email address"],
    ["email", "ada@", "Enter an email address in the correct format, like name@example.co.uk"],
  ];

  it.each(refusals)("refuses %s %j with its message, and keeps the other answers", async (field, value, message) => {
    const before = await db().application.count();
    const state = await refusalsOf(await post({ csrf_token: TOKEN, ...GOOD, [field]: value }));
    expect(state.errors).toEqual({ [field]: message });
    expect(state.values).toEqual({ ...GOOD, [field]: value });
    expect(await db().application.count()).toBe(before);
  });

  it("states the partner API's limits in pounds: £1,000 to £250,000 over 3 to 60 months", () => {
    expect(AMOUNT_RANGE_MESSAGE).toBe("Amount must be between £1,000 and £250,000");
    expect(TERM_RANGE_MESSAGE).toBe("Term must be between 3 and 60 months");
  });

  it("refuses every missing answer at once, in the page's order", async () => {
    const state = await refusalsOf(await post({ csrf_token: TOKEN }));
    expect(Object.keys(state.errors)).toEqual(["company_number", "amount", "term_months", "email"]);
  });

  it("refuses a field the form does not have, as a page (400)", async () => {
    const page = await expectErrorPage(await post({ csrf_token: TOKEN, ...GOOD, product: "flex" }), 400, "Sorry, that did not work");
    expect(page).toContain("product");
  });

  it.each([
    ["no CSRF cookie", { csrf_token: TOKEN, ...GOOD }, { cookie: null }],
    ["no CSRF token in the form", { ...GOOD }, {}],
    ["a token that is not the cookie's", { csrf_token: `${TOKEN}x`, ...GOOD }, {}],
    ["an empty token and an empty cookie", { csrf_token: "", ...GOOD }, { cookie: `${CSRF_COOKIE}=` }],
    ["a post from another site", { csrf_token: TOKEN, ...GOOD }, { origin: "https://elsewhere.example" }],
  ] as const)("refuses %s with 403 csrf_token_invalid, starting nothing", async (_case, fields, options) => {
    const before = await db().application.count();
    const page = await expectErrorPage(await post(fields, options), 403, "Sorry, that did not work");
    expect(page).toContain("security token");
    expect(await db().application.count()).toBe(before);
  });

  it("accepts a post whose browser names no origin, on the token alone", async () => {
    expect((await post({ csrf_token: TOKEN, ...GOOD }, { origin: null })).status).toBe(303);
  });
});

describe("the Apply page's CSRF cookie", () => {
  it("is given to a browser without one, and forwarded to the page in the same request", async () => {
    const response = await proxy(new NextRequest(`${config().BASE_URL}/apply`, { headers: { cookie: "other=1" } }));
    const setCookie = response.headers.get("set-cookie")!;
    const [, token] = /^svc_csrf=([A-Za-z0-9_-]{43}); Path=\/; SameSite=Strict$/.exec(setCookie)!;
    expect(response.headers.get("x-middleware-request-cookie")).toBe(`other=1; svc_csrf=${token}`);
  });

  it("is left as it is when the browser has one, and never set on the form's post", async () => {
    expect((await proxy(new NextRequest(`${config().BASE_URL}/apply`, { headers: { cookie: `${CSRF_COOKIE}=${TOKEN}` } }))).headers.get("set-cookie")).toBeNull();
    expect((await proxy(new NextRequest(`${config().BASE_URL}/apply/start`, { method: "POST" }))).headers.get("set-cookie")).toBeNull();
  });
});

describe("the platform's own project", () => {
  it("is made once: a second start finds it, and a revoked key is replaced", async () => {
    const first = await ensureSiteProject(db());
    const again = await ensureSiteProject(db());
    expect(again).toEqual({ ...first, created: false });
    expect(await db().project.count({ where: { sitePublishableKey: { not: null } } })).toBe(1);
    await db().apiKey.update({ where: { secretHash: hashSecret(first.publishableKey) }, data: { status: "revoked", revokedAt: new Date() } });
    // The form, whose process read the key before, carries on: it repairs the key and starts with the new one.
    const response = await post({ csrf_token: TOKEN, ...GOOD });
    expect(response.status).toBe(303);
    const repaired = await ensureSiteProject(db());
    expect(repaired).toMatchObject({ projectId: first.projectId, created: false });
    expect(repaired.publishableKey).toMatch(/^pk_live_/);
    expect(repaired.publishableKey).not.toBe(first.publishableKey);
    const token = response.headers.get("location")!.split("/").pop()!;
    expect((await db().application.findUniqueOrThrow({ where: { handoffToken: token } })).projectId).toBe(first.projectId);
  });

  it("has a publishable key that starts applications from the site's origin and no other", async () => {
    const { publishableKey } = await ensureSiteProject(db());
    const start = (origin: string) =>
      fetch(`${server.url}/apply/v1/applications`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ publishable_key: publishableKey, business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12 }),
      });
    const elsewhere = await start("https://shop.example");
    expect(elsewhere.status).toBe(403);
    expect((await elsewhere.json()).error).toMatchObject({ code: "origin_not_allowed", message: "This publishable key is the platform's own: it starts applications only from the platform's site." });
    expect((await start(new URL(config().BASE_URL).origin)).status).toBe(201);
    // As a live key must, it lists its pages: the site's origin alone.
    expect((await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(publishableKey) } })).allowedOrigins).toEqual([new URL(config().BASE_URL).origin]);
  });

  it("gives a key made before keys listed their pages the site's origin when the server starts", async () => {
    const { publishableKey } = await ensureSiteProject(db());
    await db().apiKey.update({ where: { secretHash: hashSecret(publishableKey) }, data: { allowedOrigins: [] } });
    expect(await ensureSiteProject(db())).toMatchObject({ publishableKey, created: false });
    expect((await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(publishableKey) } })).allowedOrigins).toEqual([new URL(config().BASE_URL).origin]);
  });
});

describe("apply links", () => {
  it("are the site's Apply page", () => {
    expect(directApplyUrl()).toBe(`${config().BASE_URL}/apply`);
  });

  it("in the public MCP server's how_to_apply, in its data and its text", async () => {
    const answer = await PUBLIC_TOOLS.find((tool) => tool.name === "how_to_apply")!.run({}, undefined as never);
    expect(answer.structured).toMatchObject({ apply_url: directApplyUrl() });
    expect(answer.text).toContain(`Apply at ${directApplyUrl()}.`);
  });

  it("and every other link a public MCP tool gives, all on the site", async () => {
    const samples: Record<string, unknown> = { product_details: { product: "business_loan" }, get_quote: { amount: 300, term: 30 } };
    const links: string[] = [];
    for (const tool of PUBLIC_TOOLS) {
      const answer = await tool.run(tool.input.parse(samples[tool.name] ?? {}), undefined as never);
      links.push(...`${answer.text} ${JSON.stringify(answer.structured)}`.matchAll(/https?:\/\/[^\s"'<>)]+/g).map((match) => match[0].replace(/[.,;]$/, "")));
    }
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(new URL(link).origin).toBe(new URL(config().BASE_URL).origin);
    expect(links).toContain(directApplyUrl());
  });

  it("in the assistant's answer on how to apply", async () => {
    const answer = await answerQuestion("How do I apply for a loan?");
    expect(answer.handoff).toBe(false);
    expect(answer.answerHtml).toContain(`<a href="${directApplyUrl()}" rel="noopener noreferrer">Apply directly</a>`);
  });
});
