// The webhook commands of the admin CLI, run in this process against the test database: delivery attempts of
// an endpoint, notifications to partner teams, and the argument checks of the `listen` forwarder.
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { runCli, startCli } from "../helpers/cli";
import { startAppServer } from "../helpers/app-server";
import { eventually } from "../helpers/eventually";
import { createTestProject } from "../helpers/partner";


const SECRETS_FILE = path.join(mkdtempSync(path.join(tmpdir(), "listen-cli-")), "listen-secrets.json");
afterAll(() => rmSync(path.dirname(SECRETS_FILE), { recursive: true, force: true }));

// The forwarder's credentials come from flags here, never from the developer's environment; its secrets go to a
// file of this test's own.
const LISTEN_ENV = { LENDING_CLIENT_ID: undefined, LENDING_API_KEY: undefined, LENDING_API_URL: undefined, LISTEN_SECRETS_FILE: SECRETS_FILE };
const cli = (...args: string[]) => runCli(LISTEN_ENV, ...args);

const WHEN = (second: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, second));

async function createEndpoint(projectId: string, url: string): Promise<string> {
  const id = newId("webhookEndpoint");
  await db().webhookEndpoint.create({
    data: { id, projectId, environment: "sandbox", url, enabledEvents: ["*"], secret: "whsec_0123456789ABCDEFGHIJabcdefghij0123456789", createdAt: WHEN(0), updatedAt: WHEN(0) },
  });
  return id;
}

/**
 * An event and a finished delivery of it: never pending, so no background sweep picks it up, and dated far in
 * the future, so the 30-day event retention other test files' sweeps apply never removes it (with its attempts).
 */
async function createDelivery(projectId: string, endpointId: string, type: string, options: { status: "succeeded" | "failed"; replay?: boolean }) {
  const eventId = newId("event");
  await db().event.create({
    data: { id: eventId, projectId, environment: "sandbox", type, apiVersion: "2026-11-01", object: { id: "app_fixture", object: "application" }, createdAt: new Date("2027-01-01T00:00:00Z"), recordedAt: new Date("2027-01-01T00:00:00Z") },
  });
  const deliveryId = newId("webhookDelivery");
  await db().webhookDelivery.create({
    data: { id: deliveryId, endpointId, eventId, projectId, status: options.status, attemptCount: 1, nextAttemptAt: null, replay: options.replay ?? false, createdAt: WHEN(0), updatedAt: WHEN(0) },
  });
  return { eventId, deliveryId };
}

async function createAttempt(
  delivery: { eventId: string; deliveryId: string },
  endpointId: string,
  fields: { number: number; attemptedAt: Date; responseStatus: number | null; error: string | null; latencyMs: number; responseExcerpt: string | null; succeeded: boolean },
): Promise<string> {
  const id = newId("webhookAttempt");
  await db().webhookAttempt.create({ data: { id, deliveryId: delivery.deliveryId, endpointId, eventId: delivery.eventId, ...fields } });
  return id;
}

describe("webhooks attempts", () => {
  let project: ProjectCredentials;
  let endpointId: string;
  let created: { eventId: string; deliveryId: string };
  let decided: { eventId: string; deliveryId: string };
  const attemptIds: string[] = [];

  beforeAll(async () => {
    project = await createTestProject();
    endpointId = await createEndpoint(project.project_id, "https://example.com/hooks");
    created = await createDelivery(project.project_id, endpointId, "application.created", { status: "succeeded" });
    decided = await createDelivery(project.project_id, endpointId, "decision.completed", { status: "failed", replay: true });
    attemptIds.push(
      await createAttempt(created, endpointId, { number: 1, attemptedAt: WHEN(1), responseStatus: 500, error: null, latencyMs: 87, responseExcerpt: "upstream broke", succeeded: false }),
      await createAttempt(created, endpointId, { number: 2, attemptedAt: WHEN(2), responseStatus: null, error: "timeout", latencyMs: 10_000, responseExcerpt: null, succeeded: false }),
      await createAttempt(decided, endpointId, { number: 1, attemptedAt: WHEN(3), responseStatus: 204, error: null, latencyMs: 12, responseExcerpt: "", succeeded: true }),
    );
    // Another endpoint of the same project: its attempts are not this endpoint's.
    const otherEndpoint = await createEndpoint(project.project_id, "https://example.com/other");
    const otherDelivery = await createDelivery(project.project_id, otherEndpoint, "application.withdrawn", { status: "succeeded" });
    await createAttempt(otherDelivery, otherEndpoint, { number: 1, attemptedAt: WHEN(4), responseStatus: 200, error: null, latencyMs: 5, responseExcerpt: "ok", succeeded: true });
  });

  it("lists the endpoint's attempts newest first, one line each: time, event type, event id, number, outcome, latency", async () => {
    const { code, stdout, stderr } = await cli("webhooks", "attempts", endpointId);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(
      [
        `2026-11-20T10:00:03.000Z  decision.completed       ${decided.eventId}  #1  ok  204  12 ms`,
        `2026-11-20T10:00:02.000Z  application.created      ${created.eventId}  #2  err timeout  10000 ms`,
        `2026-11-20T10:00:01.000Z  application.created      ${created.eventId}  #1  err 500  87 ms`,
      ].join("\n") + "\n",
    );
  });

  it("prints every field of every attempt with --json, newest first", async () => {
    const { code, stdout } = await cli("webhooks", "attempts", endpointId, "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      {
        id: attemptIds[2],
        delivery_id: decided.deliveryId,
        event_id: decided.eventId,
        event_type: "decision.completed",
        replay: true,
        number: 1,
        attempted_at: "2026-11-20T10:00:03.000Z",
        succeeded: true,
        response_status: 204,
        error: null,
        latency_ms: 12,
        response_excerpt: "",
      },
      {
        id: attemptIds[1],
        delivery_id: created.deliveryId,
        event_id: created.eventId,
        event_type: "application.created",
        replay: false,
        number: 2,
        attempted_at: "2026-11-20T10:00:02.000Z",
        succeeded: false,
        response_status: null,
        error: "timeout",
        latency_ms: 10_000,
        response_excerpt: null,
      },
      {
        id: attemptIds[0],
        delivery_id: created.deliveryId,
        event_id: created.eventId,
        event_type: "application.created",
        replay: false,
        number: 1,
        attempted_at: "2026-11-20T10:00:01.000Z",
        succeeded: false,
        response_status: 500,
        error: null,
        latency_ms: 87,
        response_excerpt: "upstream broke",
      },
    ]);
  });

  it("shows only the newest --limit attempts", async () => {
    const { code, stdout } = await cli("webhooks", "attempts", endpointId, "--limit", "2", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((attempt: { id: string }) => attempt.id)).toEqual([attemptIds[2], attemptIds[1]]);
  });

  it("says there are no delivery attempts for an unknown endpoint, and exits 0", async () => {
    const [text, json] = await Promise.all([
      cli("webhooks", "attempts", "whe_00000000000000000000000000"),
      cli("webhooks", "attempts", "whe_00000000000000000000000000", "--json"),
    ]);
    expect(text).toEqual({ code: 0, stdout: "No delivery attempts.\n", stderr: "" });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("exits 2 with usage when the endpoint id is missing or --limit is not a number", async () => {
    const [missing, badLimit] = await Promise.all([cli("webhooks", "attempts"), cli("webhooks", "attempts", endpointId, "--limit", "many")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: expected 1 argument\(s\) after "webhooks attempts"\n\nUsage:/);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toMatch(/^error: --limit: /);
  });
});

describe("notifications list", () => {
  let project: ProjectCredentials;
  const notificationIds: string[] = [];

  beforeAll(async () => {
    project = await createTestProject();
    const other = await createTestProject();
    const rows = [
      { projectId: project.project_id, subject: "Webhook endpoint whe_a disabled", createdAt: WHEN(10), sentAt: WHEN(11) },
      { projectId: other.project_id, subject: "Someone else's endpoint disabled", createdAt: WHEN(12), sentAt: null },
      { projectId: project.project_id, subject: "Webhook endpoint whe_b disabled", createdAt: WHEN(13), sentAt: null },
    ];
    for (const row of rows) {
      const id = newId("notification");
      await db().notification.create({ data: { id, kind: "webhook_endpoint_disabled", body: `${row.subject} after 72 hours of failed deliveries.`, ...row } });
      if (row.projectId === project.project_id) notificationIds.push(id);
    }
  });

  it("lists the project's notifications newest first with --json", async () => {
    const { code, stdout } = await cli("notifications", "list", "--project", project.project_id, "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      {
        id: notificationIds[1],
        project_id: project.project_id,
        kind: "webhook_endpoint_disabled",
        subject: "Webhook endpoint whe_b disabled",
        body: "Webhook endpoint whe_b disabled after 72 hours of failed deliveries.",
        created_at: "2026-11-20T10:00:13.000Z",
        sent_at: null,
        send_error: null,
      },
      {
        id: notificationIds[0],
        project_id: project.project_id,
        kind: "webhook_endpoint_disabled",
        subject: "Webhook endpoint whe_a disabled",
        body: "Webhook endpoint whe_a disabled after 72 hours of failed deliveries.",
        created_at: "2026-11-20T10:00:10.000Z",
        sent_at: "2026-11-20T10:00:11.000Z",
        send_error: null,
      },
    ]);
  });

  it("prints one line per notification, saying whether it was emailed", async () => {
    const { code, stdout } = await cli("notifications", "list", "--project", project.project_id);
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `2026-11-20T10:00:13.000Z  ${project.project_id}  Webhook endpoint whe_b disabled  (not emailed)`,
        `2026-11-20T10:00:10.000Z  ${project.project_id}  Webhook endpoint whe_a disabled  (emailed 2026-11-20T10:00:11.000Z)`,
      ].join("\n") + "\n",
    );
  });

  it("says there are none for a project without notifications, and refuses a project id without proj_", async () => {
    const quiet = await createTestProject();
    const [none, bad] = await Promise.all([cli("notifications", "list", "--project", quiet.project_id), cli("notifications", "list", "--project", "acme")]);
    expect(none).toEqual({ code: 0, stdout: "No notifications.\n", stderr: "" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --project: /);
  });
});

describe("listen", () => {
  const credentials = ["--client-id", "svc_client_00000000000000000000000000", "--api-key", "sk_sandbox_0123456789ABCDEFGHIJabcdefghij0123456789"];

  /** A loopback port with nothing listening on it. */
  async function closedPort(): Promise<number> {
    const server = net.createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as net.AddressInfo;
    server.close();
    await once(server, "close");
    return port;
  }

  it("exits 2 with usage without --forward-to", async () => {
    const { code, stdout, stderr } = await cli("listen", ...credentials);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: --forward-to: must be an http\(s\) URL\n\nUsage:/);
  });

  it("exits 2 when --forward-to is not an http(s) URL", async () => {
    const { code, stderr } = await cli("listen", "--forward-to", "ftp://127.0.0.1/hooks", ...credentials);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: --forward-to: must be an http\(s\) URL\n/);
  });

  it("exits 2 for a live secret key: it must be a sandbox secret key", async () => {
    const { code, stdout, stderr } = await cli(
      "listen",
      "--forward-to",
      "http://127.0.0.1:4000/hooks",
      "--client-id",
      "svc_client_00000000000000000000000000",
      "--api-key",
      "sk_live_0123456789ABCDEFGHIJabcdefghij0123456789",
    );
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: --api-key: must be a sandbox secret key\n\nUsage:/);
  });

  it("exits 1 with an error, before printing Ready, when nothing listens at the API URL", async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await cli("listen", "--forward-to", "http://127.0.0.1:4000/hooks", "--api-url", `http://127.0.0.1:${port}`, ...credentials);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: .+\n$/);
    expect(stderr).not.toContain("Usage:");
  });

  it("names the unreachable API URL in that error", async () => {
    const port = await closedPort();
    const { code, stderr } = await cli("listen", "--forward-to", "http://127.0.0.1:4000/hooks", "--api-url", `http://127.0.0.1:${port}`, ...credentials);
    expect(code).toBe(1);
    expect(stderr).toContain(`http://127.0.0.1:${port}`);
  });

  describe("its signing secret", () => {
    const storedSecrets = () => JSON.parse(readFileSync(SECRETS_FILE, "utf8")) as Record<string, string>;

    it("--print-secret prints the project's secret and exits, the same on every run, kept in a file only its owner reads", async () => {
      const clientId = "svc_client_printsecret0000000000000000";
      const [first, second] = [await cli("listen", "--print-secret", "--client-id", clientId), await cli("listen", "--print-secret", "--client-id", clientId)];
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^whsec_[0-9A-Za-z]{40}\n$/);
      expect(second).toEqual(first);
      expect(storedSecrets()[clientId]).toBe(first.stdout.trim());
      expect(statSync(SECRETS_FILE).mode & 0o777).toBe(0o600);
    });

    it("--print-secret --new-secret replaces it", async () => {
      const clientId = "svc_client_rotatesecret000000000000000";
      const before = (await cli("listen", "--print-secret", "--client-id", clientId)).stdout.trim();
      const rotated = await cli("listen", "--print-secret", "--new-secret", "--client-id", clientId, "--json");
      expect(rotated.code).toBe(0);
      const printed = JSON.parse(rotated.stdout);
      expect(printed).toEqual({ client_id: clientId, secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40}$/) });
      expect(printed.secret).not.toBe(before);
      expect(storedSecrets()[clientId]).toBe(printed.secret);
    });

    /** Runs `cli listen` against `apiUrl` until it prints Ready, then stops it as ^C does; answers its output. */
    async function listenUntilReady(apiUrl: string, project: ProjectCredentials, ...extra: string[]): Promise<{ code: number; stdout: string }> {
      const running = startCli(
        { ...LISTEN_ENV, LENDING_CLIENT_ID: project.client_id, LENDING_API_KEY: project.sandbox.secret_key },
        ...["listen", "--forward-to", "http://127.0.0.1:9/webhooks", "--api-url", apiUrl, ...extra],
      );
      await eventually(async () => running.output().stdout, (text) => text.includes("Ready."));
      running.stop();
      const { code, stdout } = await running.result;
      return { code, stdout };
    }

    it("is what listen signs with, run after run, until --new-secret replaces it", async () => {
      const server = await startAppServer();
      try {
        const project = await createTestProject();
        const printed = (await cli("listen", "--print-secret", "--client-id", project.client_id)).stdout.trim();
        const again = await listenUntilReady(server.url, project);
        expect(again.code).toBe(0);
        expect(again.stdout).toBe(
          `Ready. Forwarding sandbox events to http://127.0.0.1:9/webhooks. Your webhook signing secret is ${printed} (^C to quit)\nStopped after forwarding 0 event(s).\n`,
        );
        const rotated = await listenUntilReady(server.url, project, "--new-secret");
        const secret = storedSecrets()[project.client_id]!;
        expect(secret).not.toBe(printed);
        expect(rotated.stdout).toBe(
          [
            `New signing secret for ${project.client_id}; the previous one no longer verifies.`,
            `Ready. Forwarding sandbox events to http://127.0.0.1:9/webhooks. Your webhook signing secret is ${secret} (^C to quit)`,
            "Stopped after forwarding 0 event(s).",
            "",
          ].join("\n"),
        );
      } finally {
        await server.close();
      }
    });

    it("needs only the client id to print it", async () => {
      const { code, stdout, stderr } = await cli("listen", "--print-secret");
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/^error: --client-id: is required \(or set LENDING_CLIENT_ID\)\n\nUsage: npm run --silent cli -- listen /);
    });
  });
});
