// Property: no request to a site endpoint (health, discovery, the OAuth endpoints at /oauth/*, the journey's and
// the apply widget's) is answered with a 5xx, whatever its path, query and form hold. Requests are drawn from each
// endpoint's own schemas and from a valid request per endpoint, mixed with hostile values
// (tests/helpers/request-fuzz.ts), with the credentials of a real client among the values drawn. Seeded: every run
// sends the same requests.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { createTestProject, mintToken } from "../../helpers/partner";
import { assertNoServerError, requestsTo, type FuzzContext } from "../../helpers/request-fuzz";
import { loadAllEndpoints } from "../../helpers/routes";

// The property is about faults, not limits: a 429 would only stop requests from reaching the code under test.
process.env.RATE_LIMIT_SCALE = "1000";

const SEED = 20_261_203;
const NUM_RUNS = 600;

let server: AppServer;
let endpoints: RegisteredEndpoint[];
let context: FuzzContext;

beforeAll(async () => {
  server = await startAppServer();
  endpoints = (await loadAllEndpoints()).filter((declared) => declared.ring === "site");
  const project = await createTestProject();
  const token = await mintToken(server.url, project);
  const credentials = { client_id: project.client_id, client_secret: project.sandbox.secret_key };
  context = {
    root: "",
    known: [project.client_id, project.sandbox.secret_key, project.live.secret_key, project.sandbox.publishable_key, token, "client_credentials", "events:read", "partner/v1", "internal/v1"],
    examples: {
      "POST /oauth/token": { body: { grant_type: "client_credentials", scope: "events:read", ...credentials } },
      "POST /oauth/introspect": { body: { token, token_type_hint: "access_token", ...credentials } },
      "POST /oauth/clients/{id}/secrets": { body: credentials },
      "POST /apply/v1/applications": { body: { publishable_key: project.sandbox.publishable_key, business: { company_number: "12990042" }, amount_pence: 2_500_000, term_months: 12, reference: "fuzz" } },
    },
  };
});
afterAll(() => server?.close());

it("answers no request to any site endpoint with a 5xx", async () => {
  expect(endpoints.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(["GET /healthz", "POST /oauth/token", "POST /oauth/clients/{id}/secrets"]));
  await assertNoServerError(server.url, requestsTo(endpoints, context), { seed: SEED, numRuns: NUM_RUNS });
}, 120_000);
