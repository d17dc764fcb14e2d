// The dashboard's Webhooks forms over HTTP (docs/dashboard.md, "Webhooks"): each calls the webhooks service the API
// calls and writes its audit entry; each is refused to a viewer (403), to someone outside the team (404), without
// the page's CSRF token, and on a malformed post; answers it refuses come back to their form in the sealed
// one-view cookie, and a new signing secret travels only in the shown-once cookie.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "@/lib/clock";
import { openRefusedForm } from "@/lib/dashboard/form-errors";
import { openShownOnce, SHOWN_ONCE_COOKIE } from "@/lib/dashboard/shown-once";
import { FORM_ERRORS_COOKIE } from "@/lib/dashboard/shown-once-cookie";
import { toUkDateTimeInput } from "@/lib/dashboard/uk-time";
import { db } from "@/lib/db";
import { recordEvents } from "@/lib/events/events";
import type { Tenant } from "@/lib/tenant";
import { createWebhookEndpoint } from "@/lib/webhooks/service";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { dashboardTeam, oneViewCookieOf, postForm, useServerForDashboard, type DashboardPerson, type DashboardTeam, type PostOptions } from "../../helpers/dashboard";
import { expectErrorPage } from "../../helpers/http";
import { createTestProject } from "../../helpers/partner";

const HOUR_MS = 3_600_000;
const RECEIVER = "https://127.0.0.1:9/hooks";

let server: AppServer;
let projectId: string;
let tenant: Tenant;
let people: DashboardTeam;
let foreignEndpointId: string;

beforeAll(async () => {
  server = await startAppServer();
  useServerForDashboard(server);
  projectId = (await createTestProject()).project_id;
  tenant = { projectId, environment: "sandbox" };
  const other = (await createTestProject()).project_id;
  foreignEndpointId = (await createWebhookEndpoint({ tenant: { projectId: other, environment: "sandbox" }, input: { url: RECEIVER, enabled_events: ["*"] } })).id;
  people = await dashboardTeam(server, projectId);
}, 60_000);
afterAll(() => server?.close());

const base = () => `/dashboard/${projectId}/sandbox/webhooks`;
const endpointPath = (id: string) => `${base()}/${id}`;

const post = (path: string, fields: Record<string, string>, options: Partial<PostOptions> & { as?: DashboardPerson } = {}) =>
  postForm(server, path, fields, { session: people[options.as ?? "developer"].session, ...options });

async function endpointOf(url = RECEIVER, enabledEvents: string[] = ["application.created"]) {
  return createWebhookEndpoint({ tenant, input: { url, enabled_events: enabledEvents } });
}

async function recordApplicationCreated(): Promise<string> {
  const [id] = await db().$transaction((transaction) =>
    recordEvents(transaction, [{ projectId, environment: "sandbox", type: "application.created", object: { id: "app_dashboard", object: "application" }, createdAt: clock.now() }]),
  );
  return id!;
}

/** The audit entries about `objectId`, newest first, as [who, what]. */
async function auditOf(objectId: string) {
  const entries = await db().dashboardAuditEntry.findMany({ where: { projectId, objectId }, orderBy: { id: "desc" } });
  return entries.map((entry) => [entry.actorId, entry.action, entry.environment]);
}

/** The 303 back to `location` with the form's refusals, as its next view opens them. */
async function refusedAt(response: Response, location: string, as: DashboardPerson = "developer") {
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(location);
  return openRefusedForm(oneViewCookieOf(response, FORM_ERRORS_COOKIE), { userId: people[as].userId, projectId, environment: "sandbox" });
}

describe("Add endpoint", () => {
  it("registers the endpoint with the API's service, 303s to its page and seals its signing secret in the shown-once cookie", async () => {
    const response = await post(`${base()}/create`, {
      url: ` ${RECEIVER} `,
      "event.application.created": "on",
      "event.decision.completed": "on",
      description: "Our loans service",
    });
    expect(response.status).toBe(303);
    const shown = await openShownOnce(oneViewCookieOf(response, SHOWN_ONCE_COOKIE), { userId: people.developer.userId, projectId, environment: "sandbox" });
    expect(shown).toMatchObject({ kind: "webhook_endpoint_created", objectId: expect.stringMatching(/^whe_/), secret: expect.stringMatching(/^whsec_/) });
    expect(response.headers.get("location")).toBe(endpointPath(shown!.objectId));
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: shown!.objectId } });
    expect(row).toMatchObject({ projectId, environment: "sandbox", url: RECEIVER, enabledEvents: ["application.created", "decision.completed"], description: "Our loans service", status: "enabled", secret: shown!.secret });
    expect(await auditOf(row.id)).toEqual([[people.developer.userId, "webhook_endpoint.created", "sandbox"]]);
    expect(JSON.stringify(await db().dashboardAuditEntry.findMany({ where: { projectId } }))).not.toContain(shown!.secret);
  });

  it("subscribes to every event when All events is ticked, whatever else is", async () => {
    const response = await post(`${base()}/create`, { url: RECEIVER, "event.*": "on", "event.payment.settled": "on", description: "" }, { as: "owner" });
    const shown = await openShownOnce(oneViewCookieOf(response, SHOWN_ONCE_COOKIE), { userId: people.owner.userId, projectId, environment: "sandbox" });
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: shown!.objectId } })).toMatchObject({ enabledEvents: ["*"], description: null });
  });

  it("brings refused answers back to the form, as typed: its own checks first, then the service's (https only)", async () => {
    const before = await db().webhookEndpoint.count({ where: { projectId } });
    expect(await refusedAt(await post(`${base()}/create`, { url: "", description: "x".repeat(501) }), base())).toEqual({
      form: "create-endpoint",
      values: { url: "", description: "x".repeat(501), enabled_events: "" },
      errors: [
        { field: "url", message: "Enter the URL of your receiver, starting https://" },
        { field: "enabled_events", message: "Select the events to send, or All events" },
        { field: "description", message: "The description must be at most 500 characters" },
      ],
    });
    const insecure = await refusedAt(await post(`${base()}/create`, { url: "http://127.0.0.1:9/hooks", "event.application.created": "on" }), base());
    expect(insecure).toMatchObject({ form: "create-endpoint", values: { url: "http://127.0.0.1:9/hooks", enabled_events: "application.created" } });
    expect(insecure!.errors).toEqual([{ field: "url", message: expect.stringMatching(/^Webhook URLs must use https\./) }]);
    expect(await db().webhookEndpoint.count({ where: { projectId } })).toBe(before);
  });

  it("refuses an unknown field or event, and a checkbox that is not ticked as a browser ticks it", async () => {
    expect((await post(`${base()}/create`, { url: RECEIVER, "event.application.created": "on", api_version: "2020-01-01" })).status).toBe(400);
    expect((await post(`${base()}/create`, { url: RECEIVER, "event.application.exploded": "on" })).status).toBe(400);
    expect((await post(`${base()}/create`, { url: RECEIVER, "event.application.created": "yes" })).status).toBe(422);
  });
});

describe("every action", () => {
  async function actions() {
    const endpoint = await endpointOf();
    const eventId = await recordApplicationCreated();
    const since = toUkDateTimeInput(new Date(clock.now().getTime() - HOUR_MS));
    return {
      endpoint,
      posts: [
        [`${base()}/create`, { url: RECEIVER, "event.*": "on" }],
        [`${endpointPath(endpoint.id)}/update`, { url: RECEIVER, "event.*": "on", description: "changed" }],
        [`${endpointPath(endpoint.id)}/disable`, {}],
        [`${endpointPath(endpoint.id)}/enable`, {}],
        [`${endpointPath(endpoint.id)}/roll`, { overlap_hours: "1" }],
        [`${endpointPath(endpoint.id)}/replay`, { event_id: eventId }],
        [`${endpointPath(endpoint.id)}/recover`, { since }],
      ] as const,
    };
  }

  it("is refused to a viewer (403 role_forbidden), to someone outside the team (404), and to someone not signed in (401), changing nothing", async () => {
    const { endpoint, posts } = await actions();
    const before = { endpoints: await db().webhookEndpoint.count({ where: { projectId } }), deliveries: await db().webhookDelivery.count({ where: { projectId } }) };
    for (const [path, fields] of posts) {
      const page = await expectErrorPage(await post(path, fields, { as: "viewer" }), 403, "Sorry, that did not work");
      expect(page, path).toContain("Your role in this project does not allow this.");
      await expectErrorPage(await post(path, fields, { as: "stranger" }), 404, "Page not found");
      await expectErrorPage(await post(path, fields, { session: null }), 401, "Sorry, that did not work");
    }
    expect(await db().webhookEndpoint.count({ where: { projectId } })).toBe(before.endpoints);
    expect(await db().webhookDelivery.count({ where: { projectId } })).toBe(before.deliveries);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ status: "enabled", description: null, secret: endpoint.secret });
    expect(await auditOf(endpoint.id)).toEqual([]);
  });

  it("is refused without the page's CSRF token (422), with another token or from another site (403 csrf_token_invalid), even for an owner", async () => {
    const { endpoint, posts } = await actions();
    for (const [path, fields] of posts) {
      expect((await post(path, fields, { as: "owner", csrf: "missing" })).status, path).toBe(422);
      const page = await expectErrorPage(await post(path, fields, { as: "owner", csrf: "different" }), 403, "Sorry, that did not work");
      expect(page).toContain("security token");
      await expectErrorPage(await post(path, fields, { as: "owner", origin: "https://evil.example" }), 403, "Sorry, that did not work");
    }
    expect(await auditOf(endpoint.id)).toEqual([]);
  });

  it("answers 404 for another project's endpoint and for an address that names no endpoint", async () => {
    await expectErrorPage(await post(`${endpointPath(foreignEndpointId)}/disable`, {}), 404, "Page not found");
    await expectErrorPage(await post(`${base()}/whe_nope/disable`, {}), 404, "Page not found");
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: foreignEndpointId } })).status).toBe("enabled");
  });
});

describe("Edit", () => {
  it("changes the URL, events and description with the API's service, and brings a refused URL back", async () => {
    const endpoint = await endpointOf();
    const response = await post(`${endpointPath(endpoint.id)}/update`, { url: `${RECEIVER}/v2`, "event.payment.settled": "on", "event.payment.failed": "on", description: "Payments" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${endpointPath(endpoint.id)}?changed=updated`);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ url: `${RECEIVER}/v2`, enabledEvents: ["payment.settled", "payment.failed"], description: "Payments" });
    expect(await auditOf(endpoint.id)).toEqual([[people.developer.userId, "webhook_endpoint.updated", "sandbox"]]);

    const refused = await refusedAt(await post(`${endpointPath(endpoint.id)}/update`, { url: "not a url", "event.payment.settled": "on", description: "" }), endpointPath(endpoint.id));
    expect(refused).toMatchObject({ form: "edit-endpoint", values: { url: "not a url" }, errors: [{ field: "url" }] });
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url).toBe(`${RECEIVER}/v2`);
  });
});

describe("Disable and Enable", () => {
  it("moves the endpoint through its lifecycle with its events, stops its pending deliveries at once, and enables it again", async () => {
    const endpoint = await endpointOf();
    const eventId = await recordApplicationCreated();
    expect((await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id, eventId } })).status).toBe("pending");

    const disabled = await post(`${endpointPath(endpoint.id)}/disable`, {});
    expect(disabled.status).toBe(303);
    expect(disabled.headers.get("location")).toBe(`${endpointPath(endpoint.id)}?changed=disabled`);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ status: "disabled", disabledReason: "manual" });
    expect((await db().webhookDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id, eventId } })).status).toBe("abandoned");

    const enabled = await post(`${endpointPath(endpoint.id)}/enable`, {}, { as: "owner" });
    expect(enabled.headers.get("location")).toBe(`${endpointPath(endpoint.id)}?changed=enabled`);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).status).toBe("enabled");

    const lifecycle = await db().event.findMany({ where: { projectId, type: { in: ["webhook_endpoint.disabled", "webhook_endpoint.enabled"] } }, orderBy: { id: "asc" } });
    expect(lifecycle.filter((event) => (event.object as { id: string }).id === endpoint.id).map((event) => event.type)).toEqual(["webhook_endpoint.disabled", "webhook_endpoint.enabled"]);
    expect(await auditOf(endpoint.id)).toEqual([
      [people.owner.userId, "webhook_endpoint.enabled", "sandbox"],
      [people.developer.userId, "webhook_endpoint.disabled", "sandbox"],
    ]);
  });
});

describe("Roll secret", () => {
  it("gives the new secret once, keeps the old one signing for the overlap, and brings a bad overlap back", async () => {
    const endpoint = await endpointOf();
    const response = await post(`${endpointPath(endpoint.id)}/roll`, { overlap_hours: "2" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(endpointPath(endpoint.id));
    const shown = await openShownOnce(oneViewCookieOf(response, SHOWN_ONCE_COOKIE), { userId: people.developer.userId, projectId, environment: "sandbox" });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(shown).toMatchObject({ kind: "webhook_secret_rolled", objectId: endpoint.id, secret: row.secret, predecessorExpiresAt: row.previousSecretExpiresAt!.toISOString() });
    expect(row.secret).not.toBe(endpoint.secret);
    expect(row.previousSecret).toBe(endpoint.secret);
    expect(row.previousSecretExpiresAt!.getTime() - clock.now().getTime()).toBeGreaterThan(2 * HOUR_MS - 60_000);
    expect(await auditOf(endpoint.id)).toEqual([[people.developer.userId, "webhook_endpoint.secret_rolled", "sandbox"]]);

    expect(await refusedAt(await post(`${endpointPath(endpoint.id)}/roll`, { overlap_hours: "999" }), endpointPath(endpoint.id))).toEqual({
      form: "roll-secret",
      values: { overlap_hours: "999" },
      errors: [{ field: "overlap_hours", message: "Overlap must be at most 168 hours (a week)" }],
    });
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret).toBe(row.secret);
  });
});

describe("Replay", () => {
  it("queues the event again to this endpoint only, and refuses an event that is not the project's and a disabled endpoint", async () => {
    const endpoint = await endpointOf();
    const other = await endpointOf(`${RECEIVER}/other`);
    const eventId = await recordApplicationCreated();
    const response = await post(`${endpointPath(endpoint.id)}/replay`, { event_id: eventId });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${endpointPath(endpoint.id)}?replayed=${eventId}`);
    const replays = await db().webhookDelivery.findMany({ where: { eventId, replay: true } });
    expect(replays.map((delivery) => [delivery.endpointId, delivery.status])).toEqual([[endpoint.id, "pending"]]);
    expect(replays.some((delivery) => delivery.endpointId === other.id)).toBe(false);
    expect(await auditOf(eventId)).toEqual([[people.developer.userId, "event.replayed", "sandbox"]]);

    await expectErrorPage(await post(`${endpointPath(endpoint.id)}/replay`, { event_id: "evt_00000000000000000000000000" }), 404, "Page not found");
    await post(`${endpointPath(endpoint.id)}/disable`, {});
    await expectErrorPage(await post(`${endpointPath(endpoint.id)}/replay`, { event_id: eventId }), 409, "Sorry, that did not work");
    expect((await post(`${endpointPath(endpoint.id)}/replay`, { event_id: "not-an-event" })).status).toBe(422);
  });
});

describe("Recover failed since", () => {
  it("queues again the deliveries that failed since the time given (UK time), says how many, and brings a bad time back", async () => {
    const endpoint = await endpointOf();
    const eventId = await recordApplicationCreated();
    await post(`${endpointPath(endpoint.id)}/disable`, {});
    await expectErrorPage(await post(`${endpointPath(endpoint.id)}/recover`, { since: toUkDateTimeInput(new Date(clock.now().getTime() - HOUR_MS)) }), 409, "Sorry, that did not work");
    await post(`${endpointPath(endpoint.id)}/enable`, {});

    const response = await post(`${endpointPath(endpoint.id)}/recover`, { since: toUkDateTimeInput(new Date(clock.now().getTime() - HOUR_MS)) });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${endpointPath(endpoint.id)}?recovered=1`);
    expect((await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id, replay: true } })).map((delivery) => [delivery.eventId, delivery.status])).toEqual([[eventId, "pending"]]);
    expect((await auditOf(endpoint.id))[0]).toEqual([people.developer.userId, "webhook_endpoint.recovered", "sandbox"]);

    const location = endpointPath(endpoint.id);
    const refusals = {
      "": "Enter the date and time to recover failed deliveries from",
      yesterday: "Enter a real date and time, like 27/11/2026 09:30",
      "2026-02-30T10:00": "Enter a real date and time, like 27/11/2026 09:30",
      [toUkDateTimeInput(new Date(clock.now().getTime() + 2 * HOUR_MS))]: "since must not be in the future.",
    };
    for (const [since, message] of Object.entries(refusals)) {
      expect(await refusedAt(await post(`${location}/recover`, { since }), location), since).toEqual({ form: "recover", values: { since }, errors: [{ field: "since", message }] });
    }
  });
});
