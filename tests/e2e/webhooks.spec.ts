// Webhooks behind the production server (`npm start`) in the embedded default: the local driver the server starts delivers
// application.created, application.submitted and decision.completed to a sandbox endpoint on 127.0.0.1 (https, with
// a certificate the server trusts for this run: tests/helpers/tls.ts), each signed as spec 6.3 says (checked here with
// Node's crypto).
import { createHmac } from "node:crypto";
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";
import { runCertificate } from "../helpers/tls";

test("a sandbox endpoint receives the lifecycle's events, signed", async ({ request }) => {
  const deliveries: Array<{ body: string; signature: string }> = [];
  const { key, cert } = runCertificate();
  const receiver = https.createServer({ key, cert }, (incoming, outgoing) => {
    let body = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (body += chunk));
    incoming.on("end", () => {
      deliveries.push({ body, signature: String(incoming.headers["service-signature"]) });
      outgoing.writeHead(204).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");

  try {
    const headers = await sandboxHeaders(request, await createProjectWithCli("E2E Webhooks"));
    const endpoint = await request.post("/partner/v1/webhook_endpoints", {
      headers,
      data: { url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, enabled_events: ["application.created", "application.submitted", "decision.completed"] },
    });
    expect(endpoint.status()).toBe(201);
    const { secret } = await endpoint.json();

    const application = await (await request.post("/partner/v1/applications", {
      headers,
      data: { business: { company_number: "12345678" }, amount_pence: 3_000_000, term_months: 18, applicant: { email: "director@example.co.uk" } },
    })).json();
    expect((await request.post(`/partner/v1/test_helpers/applications/${application.id}/submit`, { headers })).status()).toBe(200);

    await expect.poll(() => deliveries.length, { timeout: 10_000, intervals: [200] }).toBe(3);
    const events = deliveries.map(({ body, signature }) => {
      const timestamp = /t=(\d+)/.exec(signature)![1];
      const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
      expect(signature.split(",").slice(1)).toContain(`v1=${expected}`);
      return JSON.parse(body) as { type: string; data: { object: { id?: string; application_id?: string } } };
    });
    expect(events.map((event) => event.type).sort()).toEqual(["application.created", "application.submitted", "decision.completed"]);
    for (const event of events) expect(event.data.object.application_id ?? event.data.object.id).toBe(application.id);
  } finally {
    receiver.close();
  }
});
