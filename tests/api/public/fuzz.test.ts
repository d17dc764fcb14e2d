// Property: no request to a public endpoint is answered with a 5xx, whatever its path, query and body hold.
// Requests are drawn from each endpoint's own schemas (for the intake forms, the schema their route parses the
// raw body with) and from a valid request per endpoint, mixed with hostile values (tests/helpers/request-fuzz.ts).
// Seeded: every run sends the same requests.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEnquiryBodySchema } from "@/lib/enquiries/schemas";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { sendSupportMessageBodySchema } from "@/lib/support/schemas";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectJson, jsonRequest } from "../../helpers/http";
import { assertNoServerError, requestsTo, type FuzzContext } from "../../helpers/request-fuzz";
import { loadAllEndpoints } from "../../helpers/routes";

// The property is about faults, not limits: a 429 would only stop requests from reaching the code under test.
process.env.RATE_LIMIT_SCALE = "1000";

const SEED = 20_261_202;
const NUM_RUNS = 1_000;

let server: AppServer;
let endpoints: RegisteredEndpoint[];
let context: FuzzContext;

beforeAll(async () => {
  server = await startAppServer();
  endpoints = (await loadAllEndpoints()).filter((declared) => declared.ring === "public");
  const chat = await expectJson(await fetch(`${server.url}/public/v1/support/chat`, jsonRequest("POST", { message: "What is Flex?" })), 200);
  context = {
    root: "/public/v1",
    known: [
      chat.session_id, "about", "faq", "terms", "no-such-page", "enquiry", "lead", "complaint", "sales", "support", "ada@example.co.uk",
      "weekly", "fortnightly", "monthly", "1", "3", "14", "28", "50", "84", "200", "500", "1000", "5000", "v1",
    ],
    bodySchemas: { "POST /enquiries": createEnquiryBodySchema, "POST /support/chat": sendSupportMessageBodySchema },
    examples: {
      "GET /quote/onetime": { query: { amount: "200", term: "28", frequency: "weekly" } },
      "GET /quote/flex": { query: { limit: "1000", draw: "500", months: "3" } },
      "GET /support/widget.js": { query: { v: "1" } },
      "POST /consent": { body: { analytics: true, marketing: false, anonymous_id: "visitor_0123456789", policy_version: "2026-11" } },
      "POST /enquiries": { body: { form: "lead", email: "ada@example.co.uk", dept: "sales", name: "Ada", message: "Can a café borrow?", fields: { company: "Acme" } } },
      "POST /support/chat": { body: { message: "How much does a loan cost?", session_id: chat.session_id } },
    },
  };
});
afterAll(() => server?.close());

it("answers no request to any public endpoint with a 5xx", async () => {
  expect(endpoints.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(["POST /enquiries", "POST /support/chat", "GET /quote/onetime"]));
  await assertNoServerError(server.url, requestsTo(endpoints, context), { seed: SEED, numRuns: NUM_RUNS });
}, 120_000);
