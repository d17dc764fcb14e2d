// Companies House's quota is the whole platform's (docs/applications.md, "Company lookups"): live answers are
// cached per company number across processes (found a day, no such company an hour; failures never), and real
// calls spend a platform-wide budget of which apply.js widget starts may take only their share, so anyone with a
// public publishable key can exhaust that share and nothing more. A real HTTP server on 127.0.0.1 stands in for
// Companies House and counts the calls it gets.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { runMaintenance } from "@/lib/background/catalogue";
import { hashSecret } from "@/lib/keys/secrets";
import { setAllowedOrigins } from "@/lib/keys/service";
import { REGISTRY_BUDGET } from "@/lib/ratelimit/policies";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

type Json = Record<string, any>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Calls Companies House received, by company number. */
const calls = new Map<string, number>();
/** Numbers Companies House has no company for, and numbers it fails on. */
const missing = new Set<string>();
const failing = new Set<string>();

const companiesHouse = http.createServer((request, response) => {
  const number = decodeURIComponent(/^\/company\/([^/]+)$/.exec(request.url ?? "")?.[1] ?? "");
  calls.set(number, (calls.get(number) ?? 0) + 1);
  if (failing.has(number)) return void response.writeHead(502).end();
  if (missing.has(number)) return void response.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ errors: [{ error: "company-profile-not-found" }] }));
  response.writeHead(200, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ company_name: `REGISTERED ${number} LIMITED`, company_status: "active", type: "ltd", date_of_creation: "2015-03-01" }));
});
companiesHouse.listen(0, "127.0.0.1");
await once(companiesHouse, "listening");
// Read by lib/env.ts the first time anything asks for the configuration, which is after this.
process.env.COMPANIES_HOUSE_API_KEY = "ch_test_key";
process.env.COMPANIES_HOUSE_API_URL = `http://127.0.0.1:${(companiesHouse.address() as AddressInfo).port}`;
// The partner and widget limits out of the way, so only the registry budget refuses; it is not scaled.
process.env.RATE_LIMIT_SCALE = "100";
// The lookups kept are the platform's, by company number: this file's database starts with none.

let server: AppServer;
let project: ProjectCredentials;
/** The project's live token, minted at the time each test has frozen the clock at. */
let liveToken: string;
const SHOP = "https://shop.example";

beforeAll(async () => {
  server = await startAppServer();
  project = await createTestProject();
  // A live publishable key starts applications only from the pages it lists (docs/apply-js.md).
  const key = await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(project.live.publishable_key) } });
  await setAllowedOrigins({ tenant: { projectId: project.project_id, environment: "live" }, id: key.id, allowedOrigins: [SHOP] });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => companiesHouse.close(resolve));
});
beforeEach(() => {
  calls.clear();
});

const body = (companyNumber: string) => ({ business: { company_number: companyNumber }, amount_pence: 2_500_000, term_months: 12, applicant: { email: "finance@example.co.uk" } });
let clock: ReturnType<typeof freezeClock>;

async function freezeAt(instant: string): Promise<void> {
  clock = freezeClock(instant);
  liveToken = await mintToken(server.url, project, { environment: "live" });
}

/** Moves the clock on, with a token that is still valid then. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  liveToken = await mintToken(server.url, project, { environment: "live" });
}

const partnerCreate = (companyNumber: string, token = liveToken) => fetch(`${server.url}/partner/v1/applications`, bearer(token, jsonRequest("POST", body(companyNumber))));
const widgetStart = (companyNumber: string) =>
  fetch(`${server.url}/apply/v1/applications`, jsonRequest("POST", { publishable_key: project.live.publishable_key, ...body(companyNumber), applicant: undefined }, { origin: SHOP }));
const numbers = (from: number, count: number) => Array.from({ length: count }, (_, index) => String(from + index).padStart(8, "0"));

describe("a live company lookup", () => {
  it("is answered from the cache for a day after Companies House found the company, then asked again", async () => {
    await freezeAt("2031-03-01T09:00:00.000Z");
    const first = await expectJson<Json>(await partnerCreate("61000001"), 201);
    expect(first.business).toEqual({ company_number: "61000001", name: "REGISTERED 61000001 LIMITED" });
    expect(calls.get("61000001")).toBe(1);

    // Another create and a widget start for the same company, within the day: no call.
    await advance(DAY_MS - 1_000);
    expect((await expectJson<Json>(await partnerCreate("61000001"), 201)).business.name).toBe("REGISTERED 61000001 LIMITED");
    expect((await widgetStart("61000001")).status).toBe(201);
    expect(calls.get("61000001")).toBe(1);

    await advance(2_000);
    expect((await partnerCreate("61000001")).status).toBe(201);
    expect(calls.get("61000001")).toBe(2);
  });

  it("remembers that no such company exists for an hour", async () => {
    await freezeAt("2031-03-02T09:00:00.000Z");
    missing.add("61000404");
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await expectApiError(await partnerCreate("61000404"), 422, "validation_failed");
      expect(refused.error.detail).toEqual([{ field: "business.company_number", reason: "company_not_found", message: "No company is registered under this number." }]);
    }
    expect(calls.get("61000404")).toBe(1);
    await advance(HOUR_MS - 1_000);
    await expectApiError(await partnerCreate("61000404"), 422, "validation_failed");
    expect(calls.get("61000404")).toBe(1);
    await advance(2_000);
    await expectApiError(await partnerCreate("61000404"), 422, "validation_failed");
    expect(calls.get("61000404")).toBe(2);
  });

  it("is not cached when Companies House fails", async () => {
    await freezeAt("2031-03-03T09:00:00.000Z");
    failing.add("61000502");
    for (let attempt = 0; attempt < 2; attempt += 1) await expectApiError(await partnerCreate("61000502"), 503, "service_unavailable");
    expect(calls.get("61000502")).toBe(2);
    failing.delete("61000502");
    expect((await partnerCreate("61000502")).status).toBe(201);
    expect(calls.get("61000502")).toBe(3);
  });

  it("in the sandbox follows the sandbox rules: Companies House is never called", async () => {
    await freezeAt("2031-03-04T09:00:00.000Z");
    const sandboxToken = await mintToken(server.url, project);
    expect((await partnerCreate("61000777", sandboxToken)).status).toBe(201);
    expect(calls.size).toBe(0);
  });
});

describe("the registry budget", () => {
  it("lets widget starts spend only their share (503 with Retry-After), while partner creates go on until the whole budget is spent", async () => {
    await freezeAt("2031-03-05T09:00:00.000Z");
    const widgetShare = REGISTRY_BUDGET.widgetStarts.burst;
    const platform = REGISTRY_BUDGET.platform.burst;
    expect({ widgetShare, platform }).toEqual({ widgetShare: 40, platform: 100 });

    for (const number of numbers(62000000, widgetShare)) expect((await widgetStart(number)).status).toBe(201);
    const refused = await widgetStart("62000999");
    const error = await expectApiError(refused, 503, "service_unavailable");
    expect(error.error).toMatchObject({ retryable: true, retry_after_ms: 2_000, message: "Too many company lookups at the moment; retry after the Retry-After delay." });
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(calls.has("62000999")).toBe(false);
    // A company already looked up costs nothing: the widget can still start one.
    expect((await widgetStart("62000000")).status).toBe(201);

    // Partner creates have the rest of the budget.
    for (const number of numbers(63000000, platform - widgetShare)) expect((await partnerCreate(number)).status).toBe(201);
    const over = await partnerCreate("63000999");
    expect((await expectApiError(over, 503, "service_unavailable")).error.retry_after_ms).toBe(1_000);
    expect(over.headers.get("retry-after")).toBe("1");
    expect([...calls.values()].reduce((sum, count) => sum + count, 0)).toBe(platform);

    // The budget refills as time passes.
    await advance(3_000);
    expect((await partnerCreate("63000999")).status).toBe(201);
    expect((await widgetStart("62000999")).status).toBe(201);
  });
});

describe("the answers kept", () => {
  it("leaves no row behind once stale: the hourly maintenance deletes answers past their time", async () => {
    await freezeAt("2031-03-07T09:00:00.000Z");
    missing.add("61000405");
    await runMaintenance(); // the answers of the tests before this one, all stale by now
    expect((await partnerCreate("61000003")).status).toBe(201);
    await expectApiError(await partnerCreate("61000405"), 422, "validation_failed");
    const kept = () => db().registryLookup.findMany({ where: { companyNumber: { in: ["61000003", "61000405"] } }, select: { companyNumber: true }, orderBy: { companyNumber: "asc" } });

    await advance(HOUR_MS);
    expect(await runMaintenance()).toMatchObject({ registryLookupsPruned: 1 });
    expect(await kept()).toEqual([{ companyNumber: "61000003" }]);
    await advance(DAY_MS - HOUR_MS);
    expect(await runMaintenance()).toMatchObject({ registryLookupsPruned: 1 });
    expect(await kept()).toEqual([]);
  });
});
