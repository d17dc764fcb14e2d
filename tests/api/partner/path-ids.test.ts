// Every partner route that takes an id in its path answers an id PostgreSQL could not even compare (one with a
// NUL in it) as it answers any id that names nothing: 404 not_found, never a fault. The routes come from the
// route registry, so a new one is covered as soon as it exists.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { ID_PREFIXES } from "@/lib/ids";
import { db } from "@/lib/db";
import { changeProjectCapabilities, PROJECT_CAPABILITIES } from "@/lib/projects/capabilities";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";
import { loadAllEndpoints } from "../../helpers/routes";

let server: AppServer;
let token: string;
let routesWithIds: RegisteredEndpoint[];

beforeAll(async () => {
  server = await startAppServer();
  // Every scope and every capability, so the only check a request can fail is the one under test.
  const project = await createTestProject();
  await changeProjectCapabilities(db(), project.project_id, { enable: [...PROJECT_CAPABILITIES] });
  token = await mintToken(server.url, project);
  routesWithIds = (await loadAllEndpoints()).filter((declared) => declared.ring === "partner" && declared.path.includes("{id}") && declared.config.auth.kind === "bearer");
});
afterAll(() => server?.close());

/** The id prefix the route's params schema accepts, so the test id passes every check but the one under test. */
function prefixAcceptedBy({ config }: RegisteredEndpoint): string | undefined {
  return Object.values(ID_PREFIXES).find((prefix) => config.params?.safeParse({ id: `${prefix}_01jzzzzzzzzzzzzzzzzzzzzzzz` }).success);
}

it("finds the partner routes that take an id", () => {
  expect(routesWithIds.map(({ method, path }) => `${method} ${path}`)).toEqual(
    expect.arrayContaining(["GET /applications/{id}", "POST /events/{id}/replay", "DELETE /keys/{id}", "POST /webhook_endpoints/{id}"]),
  );
  for (const declared of routesWithIds) expect(prefixAcceptedBy(declared), `${declared.method} ${declared.path}`).toBeDefined();
});

it("answers 404 not_found on each of them for an id of the right prefix with a NUL in it", async () => {
  const outcomes = [];
  for (const declared of routesWithIds) {
    const { method, path } = declared;
    const url = `${server.url}/partner/v1${path.replace("{id}", `${prefixAcceptedBy(declared)}_01jzzzzzzzzzzzzzzzzzzzzz%00z`)}`;
    const response = await fetch(url, bearer(token, method === "GET" || method === "DELETE" ? { method } : jsonRequest(method, {})));
    outcomes.push(`${method} ${path} ${response.status}`);
    if (response.status === 404) await expectApiError(response, 404, "not_found");
  }
  expect(outcomes).toEqual(routesWithIds.map(({ method, path }) => `${method} ${path} 404`));
});
