// The servicing walk an integrator takes in the sandbox (docs/sandbox.md), over HTTP only, with a webhook for
// each step: fund a `…0008` company (its collections fail), advance the test clock 35 days into arrears, pay
// the arrears through a payment link (performing again), then pay `payoff_pence` (settled, `account.closed`).
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { eventually } from "../../helpers/eventually";
import { expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken, untilDecided } from "../../helpers/partner";
import { trustedTestCertificate } from "../../helpers/tls";

let server: AppServer;
let receiver: https.Server;
let receiverUrl: string;
const delivered: Array<{ id: string; type: string; data: { object: Record<string, any> } }> = [];

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  server = await startAppServer();
  receiver = https.createServer(trustedTestCertificate(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      delivered.push(JSON.parse(Buffer.concat(chunks).toString()));
      response.writeHead(200).end("ok");
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await server?.close();
  receiver?.close();
});

it("takes a loan into arrears with the test clock, back out with a payment link, and to settled with its payoff", async () => {
  const project: ProjectCredentials = await createTestProject();
  const token = await mintToken(server.url, project);
  const call = async (method: string, route: string, body?: unknown, status = 200) =>
    expectJson(await fetch(`${server.url}/partner/v1${route}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body))), status);
  /**
   * The types of the events delivered since `seen`, in the order they happened (deliveries run in parallel, so
   * they may arrive out of it; event ids sort by creation), once every event recorded so far has arrived.
   */
  const deliveredSince = async (seen: number) => {
    const recorded = (await call("GET", "/events?limit=100")).data.length as number;
    await eventually(async () => delivered.length, (count) => count >= recorded, { drive: deliverDueWebhooks });
    return delivered.slice(seen).sort((a, b) => a.id.localeCompare(b.id)).map((event) => event.type);
  };
  await call("POST", "/webhook_endpoints", { url: receiverUrl, enabled_events: ["*"] }, 201);

  // Funded: the account opens performing and the principal goes out.
  const application = await call(
    "POST",
    "/applications",
    { business: { company_number: "12340008" }, amount_pence: 1_200_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
    201,
  );
  await call("POST", `/test_helpers/applications/${application.id}/submit`);
  await untilDecided(application.id, () => call("GET", `/applications/${application.id}`));
  await deliveredSince(0);
  let seen = delivered.length;
  const funded = await call("POST", `/test_helpers/applications/${application.id}/fund`);
  const accountId = funded.account_id as string;
  expect(await deliveredSince(seen)).toEqual(["offer.accepted", "application.funded", "account.activated", "payment.created", "payment.settled"]);

  // 35 days on, the first collection has failed: arrears.
  seen = delivered.length;
  const clock = await call("POST", "/test_helpers/clock/advance", { days: 35 });
  expect(clock.offset_days).toBe(35);
  const inArrears = await call("GET", `/accounts/${accountId}`);
  expect(inArrears.status).toBe("in_arrears");
  expect(inArrears.balance.arrears_pence).toBe(inArrears.schedule[0].amount_pence);
  expect(inArrears.schedule[0].status).toBe("missed");
  expect(await deliveredSince(seen)).toEqual(expect.arrayContaining(["payment.created", "payment.failed", "account.updated"]));
  expect(delivered.slice(seen).find((event) => event.type === "payment.failed")?.data.object).toMatchObject({ account_id: accountId, failure_code: "insufficient_funds" });

  // The borrower pays the arrears through a link, and the bank settles it: performing again.
  seen = delivered.length;
  const arrearsLink = await call("POST", "/payments/links", { account_id: accountId, amount_pence: inArrears.balance.arrears_pence }, 201);
  expect(arrearsLink).toMatchObject({ type: "payment_link", status: "provisioned", amount_pence: inArrears.balance.arrears_pence });
  await call("POST", `/test_helpers/payments/${arrearsLink.id}/settle`);
  const performing = await call("GET", `/accounts/${accountId}`);
  expect(performing.status).toBe("performing");
  expect(performing.balance.arrears_pence).toBe(0);
  const caughtUp = await deliveredSince(seen);
  expect(caughtUp).toEqual(expect.arrayContaining(["payment.created", "payment.settled", "account.updated"]));
  expect(caughtUp.indexOf("payment.settled")).toBeLessThan(caughtUp.lastIndexOf("account.updated"));

  // Then the payoff: settled, closed, nothing owed.
  seen = delivered.length;
  const { payoff_pence: payoff } = await call("GET", `/accounts/${accountId}/balance`);
  expect(payoff).toBeGreaterThan(0);
  const payoffLink = await call("POST", "/payments/links", { account_id: accountId, amount_pence: payoff }, 201);
  await call("POST", `/test_helpers/payments/${payoffLink.id}/settle`);
  const settled = await call("GET", `/accounts/${accountId}`);
  expect(settled.status).toBe("settled");
  expect(settled.balance).toEqual({ principal_outstanding_pence: 0, interest_accrued_pence: 0, arrears_pence: 0, payoff_pence: 0 });
  const closing = await deliveredSince(seen);
  expect(closing.slice(-2)).toEqual(["account.updated", "account.closed"]);
  expect(delivered.slice(seen).find((event) => event.type === "account.closed")!.data.object).toMatchObject({ id: accountId, status: "settled" });

  const ledger = (await call("GET", `/accounts/${accountId}/transactions`)).data as Array<{ type: string; amount_pence: number }>;
  expect(ledger.map((entry) => entry.type)).toEqual(["collection", "collection", "drawdown"]);
  expect(ledger.reduce((sum, entry) => sum + entry.amount_pence, 0)).toBe(inArrears.balance.arrears_pence + payoff - 1_200_000);
});
