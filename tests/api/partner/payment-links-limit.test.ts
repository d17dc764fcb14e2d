// POST /partner/v1/payments/links has its own limit (spec 8): 10 a second per project and environment, on top
// of the project's bucket, spent only by requests that reach the operation (a replay under its Idempotency-Key
// does not), and a refused request creates nothing.
import { afterAll, beforeAll, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { fundedAccount } from "../../database/accounts/helpers";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

it("creates 10 links a second, refuses the 11th with 429, and lets a replay through", async () => {
  const clock = freezeClock("2027-05-05T09:00:00.000Z");
  const project = await createTestProject();
  const account = await fundedAccount({ projectId: project.project_id, environment: "sandbox" });
  const token = await mintToken(server.url, project);
  const create = (key: string) => fetch(`${server.url}/partner/v1/payments/links`, bearer(token, jsonRequest("POST", { account_id: account.id, amount_pence: 100 }, { "idempotency-key": key })));

  const statuses = [];
  for (let index = 0; index < 10; index += 1) statuses.push((await create(`limit-${index}`)).status);
  expect(statuses).toEqual(Array(10).fill(201));
  const refused = await create("limit-10");
  await expectApiError(refused, 429, "rate_limited");
  expect(refused.headers.get("ratelimit-policy")).toBe("10;w=1;burst=10");
  expect(refused.headers.get("retry-after")).toBe("1");
  expect((await create("limit-3")).status).toBe(201);
  expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(10);

  clock.advance(1_000);
  expect((await create("limit-10")).status).toBe(201);
  expect(await db().payment.count({ where: { accountId: account.id, type: "payment_link" } })).toBe(11);
});
