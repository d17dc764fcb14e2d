// The apply.js widget's start is limited per client address (ten starts a minute) and
// per publishable key (twenty at once, then five a second), each bucket apart from the other, with the RateLimit
// headers and a readable 429 for the calling page (docs/apply-js.md, "Limits"). Behind a trusted proxy, so each
// test can speak from addresses of its own.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/keys/secrets";
import { setAllowedOrigins } from "@/lib/keys/service";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";

let server: AppServer;
let project: ProjectCredentials;

const SHOP = "https://shop.example";

beforeAll(async () => {
  process.env.TRUSTED_PROXY_HEADER = "X-Forwarded-For";
  server = await startAppServer();
  project = await createTestProject();
  // The live key's page, which a live key must list to start anything (docs/apply-js.md).
  const key = await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(project.live.publishable_key) } });
  await setAllowedOrigins({ tenant: { projectId: project.project_id, environment: "live" }, id: key.id, allowedOrigins: [SHOP] });
});
afterAll(() => server?.close());
const valid = (key: string) => ({ publishable_key: key, business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12 });

function start(body: unknown, address: string): Promise<Response> {
  return fetch(`${server.url}/apply/v1/applications`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: SHOP, "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
}

it("lets one address start ten a minute, whatever the key", async () => {
  const clock = freezeClock("2031-02-01T08:00:00.000Z");
  // Refused bodies spend the address's window too: it is spent before the body is read.
  for (let index = 0; index < 10; index += 1) expect((await start({ nonsense: true }, "192.0.2.1")).status).toBe(400);
  clock.advance(15_000);
  const refused = await start(valid(project.sandbox.publishable_key), "192.0.2.1");
  const body = await expectApiError(refused, 429, "rate_limited");
  expect(body.error.retryable).toBe(true);
  expect(refused.headers.get("retry-after")).toBe("45");
  expect(refused.headers.get("ratelimit-policy")).toBe("10;w=60");
  // The calling page can read the refusal and its headers.
  expect(refused.headers.get("access-control-allow-origin")).toBe(SHOP);
  expect(refused.headers.get("access-control-expose-headers")).toContain("Retry-After");

  expect((await start(valid(project.sandbox.publishable_key), "192.0.2.2")).status).toBe(201);
  clock.advance(45_000);
  expect((await start(valid(project.sandbox.publishable_key), "192.0.2.1")).status).toBe(201);
});

it("lets one key start twenty at once from any addresses, then five a second; another key is untouched", async () => {
  const clock = freezeClock("2031-02-02T08:00:00.000Z");
  const key = project.live.publishable_key;
  for (let index = 0; index < 20; index += 1) expect((await start(valid(key), `198.51.100.${index}`)).status).toBe(201);
  const refused = await start(valid(key), "198.51.100.200");
  await expectApiError(refused, 429, "rate_limited");
  expect(refused.headers.get("ratelimit-policy")).toBe("5;w=1;burst=20");

  // The key's bucket is spent only by starts that reach it: a refused body from a fresh address still answers 422.
  await expectApiError(await start({ ...valid(key), amount_pence: 1 }, "198.51.100.201"), 422, "validation_failed");
  expect((await start(valid(project.sandbox.publishable_key), "198.51.100.202")).status).toBe(201);
  clock.advance(1_000);
  for (let index = 0; index < 5; index += 1) expect((await start(valid(key), `203.0.113.${index}`)).status).toBe(201);
  expect((await start(valid(key), "203.0.113.99")).status).toBe(429);
});
