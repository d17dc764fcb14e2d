// Every dashboard form over HTTP, read from the route configs (docs/dashboard.md, "Who may post a form"): each route
// that takes a post under /dashboard/{project}/{environment}/ declares the `dashboard_member` guard with its action,
// and the guard refuses every role that `can` does not allow the action (403 `role_forbidden`) and someone signed in
// outside the team (404), before anything in the path is looked up. A new form route without the guard fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { EndpointAuth } from "@/lib/http/endpoint";
import type { RegisteredEndpoint } from "@/lib/http/route-registry";
import { ID_PREFIXES } from "@/lib/ids";
import { can, PROJECT_ROLES } from "@/lib/team/permissions";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { dashboardTeam, postForm, useServerForDashboard, type DashboardTeam } from "../../helpers/dashboard";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";
import { loadAllEndpoints } from "../../helpers/routes";

type GuardedEndpoint = RegisteredEndpoint & { config: { auth: Extract<EndpointAuth, { kind: "dashboard_member" }> } };

const FORM_ROUTES = /^\/dashboard\/\{project\}\/\{environment\}\//;

/** A valid answer for each field a form requires (the page's CSRF token aside, which every post carries). */
const REQUIRED_ANSWERS: Record<string, string> = {
  allowed_origins: "",
  event_id: `evt_${"0".repeat(26)}`,
};

/** An id of every kind, each well-formed: the guard refuses before any of them is looked up. */
const CANDIDATE_IDS = Object.values(ID_PREFIXES).map((prefix) => `${prefix}_${"0".repeat(26)}`);

let server: AppServer;
let projectId: string;
let people: DashboardTeam;
let endpoints: RegisteredEndpoint[];

beforeAll(async () => {
  server = await startAppServer();
  useServerForDashboard(server);
  projectId = (await createTestProject()).project_id;
  people = await dashboardTeam(server, projectId);
  endpoints = await loadAllEndpoints();
}, 60_000);
afterAll(() => server?.close());

const isGuarded = (endpoint: RegisteredEndpoint): endpoint is GuardedEndpoint => endpoint.config.auth.kind === "dashboard_member";

/** The route's address in this test's project's sandbox, each other path parameter a well-formed id its schema takes. */
function addressOf({ path, config }: RegisteredEndpoint): string {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).filter((name) => name !== "project" && name !== "environment");
  let choices: Record<string, string>[] = [{ project: projectId, environment: "sandbox" }];
  for (const name of names) choices = choices.flatMap((chosen) => CANDIDATE_IDS.map((id) => ({ ...chosen, [name]: id })));
  const params = choices.find((candidate) => config.params!.safeParse(candidate).success);
  if (!params) throw new Error(`No well-formed ids for ${path}`);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => params[name]!);
}

/** The fields the route's body schema requires, each with a valid answer; checked against the schema itself. */
function fieldsOf({ path, config }: RegisteredEndpoint): Record<string, string> {
  const shape = (config.body as z.ZodObject).shape;
  const required = Object.keys(shape).filter((field) => field !== "csrf_token" && !z.safeParse(shape[field]!, undefined).success);
  const fields = Object.fromEntries(required.map((field) => [field, REQUIRED_ANSWERS[field]]));
  expect(config.body!.safeParse({ csrf_token: "t".repeat(43), ...fields }).success, `the answers for ${path}`).toBe(true);
  return fields as Record<string, string>;
}

describe("the dashboard's form routes", () => {
  it("each take posts only from a signed-in member allowed their action", () => {
    const formPosts = endpoints.filter(({ ring, method, path }) => ring === "site" && method === "POST" && FORM_ROUTES.test(path));
    const guarded = endpoints.filter(isGuarded);
    expect(formPosts.length).toBeGreaterThanOrEqual(17);
    expect(formPosts.filter((endpoint) => !isGuarded(endpoint)).map(({ path }) => path)).toEqual([]);
    expect(guarded.map(({ path }) => path)).toEqual(formPosts.map(({ path }) => path));
    expect(guarded.map(({ path, config }) => `${path} ${config.auth.action}`)).toEqual(
      expect.arrayContaining([
        "/dashboard/{project}/{environment}/keys/create create_key",
        "/dashboard/{project}/{environment}/keys/{id}/roll roll_key",
        "/dashboard/{project}/{environment}/team/invite manage_team",
        "/dashboard/{project}/{environment}/webhooks/create manage_webhooks",
        "/dashboard/{project}/{environment}/applications/{id}/release-decision release_decision",
        "/dashboard/{project}/{environment}/sub-accounts/create manage_sub_accounts",
      ]),
    );
  });

  it("refuse each role the action is not allowed to (403 role_forbidden) and someone outside the team (404)", async () => {
    const refused: string[] = [];
    for (const endpoint of endpoints.filter(isGuarded)) {
      const address = addressOf(endpoint);
      const fields = fieldsOf(endpoint);
      const lacking = PROJECT_ROLES.filter((role) => !can(role, endpoint.config.auth.action));
      expect(lacking.length, `some role lacks ${endpoint.config.auth.action}`).toBeGreaterThan(0);
      for (const role of lacking) {
        const page = await expectErrorPage(await postForm(server, address, fields, { session: people[role].session }), 403, "Sorry, that did not work");
        expect(page).toContain("Your role in this project does not allow this.");
        refused.push(`${endpoint.path} ${role}`);
      }
      await expectErrorPage(await postForm(server, address, fields, { session: people.stranger.session }), 404, "Page not found");
    }
    expect(refused).toContain("/dashboard/{project}/{environment}/keys/{id}/roll developer");
    expect(refused).toContain("/dashboard/{project}/{environment}/webhooks/create viewer");
    expect(refused).not.toContain("/dashboard/{project}/{environment}/webhooks/create developer");
    expect(refused).toContain("/dashboard/{project}/{environment}/sub-accounts/create viewer");
    expect(refused).not.toContain("/dashboard/{project}/{environment}/sub-accounts/create developer");
  }, 60_000);
});
