// The sandbox lifecycle behind the production server (`npm start`) (the embedded default: no Inngest, so the local driver the
// server starts at boot decides the application): create, submit through the test helper, read the decision
// within five seconds, fund.
import { expect, test } from "@playwright/test";
import { createProjectWithCli, sandboxHeaders } from "./cli-project";

test("a sandbox application is created, submitted, decided within five seconds and funded over HTTP", async ({ request }) => {
  const headers = await sandboxHeaders(request, await createProjectWithCli("E2E Lifecycle"));

  const created = await request.post("/partner/v1/applications", {
    headers: { ...headers, "idempotency-key": `e2e-${Date.now()}` },
    data: { business: { company_number: "SC123456" }, amount_pence: 2_000_000, term_months: 12, applicant: { email: "director@example.co.uk" } },
  });
  expect(created.status()).toBe(201);
  const application = await created.json();
  expect(application).toMatchObject({ status: "created", business: { name: "Sandbox Trading SC123456 Ltd" } });

  const started = Date.now();
  expect((await request.post(`/partner/v1/test_helpers/applications/${application.id}/submit`, { headers })).status()).toBe(200);
  await expect
    .poll(async () => (await (await request.get(`/partner/v1/applications/${application.id}`, { headers })).json()).status, { timeout: 5_000, intervals: [100] })
    .toBe("approved");
  expect(Date.now() - started).toBeLessThan(5_000);

  const decided = await (await request.get(`/partner/v1/applications/${application.id}`, { headers })).json();
  const decision = await (await request.get(`/partner/v1/decisions/${decided.decision}`, { headers })).json();
  expect(decision).toMatchObject({ outcome: "approved", approved_amount_pence: 2_000_000, apr_bps: 2400 });

  const funded = await request.post(`/partner/v1/test_helpers/applications/${application.id}/fund`, { headers });
  expect((await funded.json()).status).toBe("funded");
});
