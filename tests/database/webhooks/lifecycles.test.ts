// The webhook endpoint and delivery lifecycles (lib/webhooks/*-state-machine.ts and
// *-transition.ts), against the real database: each move is checked against its table, writes its
// columns (and, for endpoints, its event) in the caller's transaction, and a refused move writes nothing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { recordEvents } from "@/lib/events/events";
import { WEBHOOK_DELIVERY_LIFECYCLE } from "@/lib/webhooks/delivery-state-machine";
import { transitionWebhookDelivery } from "@/lib/webhooks/delivery-transition";
import { canMove } from "@/lib/lifecycle";
import { WEBHOOK_ENDPOINT_LIFECYCLE } from "@/lib/webhooks/endpoint-state-machine";
import { endpointState, lockWebhookEndpoint, transitionWebhookEndpoint } from "@/lib/webhooks/endpoint-transition";
import { createTestProject } from "../../helpers/partner";

const NOW = new Date("2031-02-03T04:05:06.000Z");

async function newEndpoint(status: "enabled" | "disabled" = "enabled", disabledReason: string | null = null) {
  const project = await createTestProject();
  const at = new Date("2031-01-01T00:00:00.000Z");
  return db().webhookEndpoint.create({
    data: { id: newId("webhookEndpoint"), projectId: project.project_id, environment: "sandbox", url: "https://hooks.example.com/a", enabledEvents: ["*"], status, disabledReason, secret: `whsec_${"z".repeat(40)}`, failingSince: status === "enabled" ? at : null, createdAt: at, updatedAt: at },
  });
}

const eventsOf = async (projectId: string) =>
  (await db().event.findMany({ where: { projectId }, orderBy: { id: "asc" } })).map((event) => ({ type: event.type, object: event.object as Record<string, unknown>, createdAt: event.createdAt }));

describe("the webhook endpoint lifecycle", () => {
  it("has one table: the owner disables and enables, the platform disables for failing or an insecure URL only an enabled endpoint", () => {
    const allowed = Object.entries(WEBHOOK_ENDPOINT_LIFECYCLE.moves).flatMap(([trigger, rule]) => rule.from.map((from) => `${from} -${trigger}-> ${rule.to}`));
    expect(allowed.sort()).toEqual([
      "disabled_failing -disable-> disabled_manual",
      "disabled_failing -enable-> enabled",
      "disabled_insecure_url -disable-> disabled_manual",
      "disabled_insecure_url -enable-> enabled",
      "disabled_manual -enable-> enabled",
      "enabled -disable-> disabled_manual",
      "enabled -disable_for_failing-> disabled_failing",
      "enabled -disable_for_insecure_url-> disabled_insecure_url",
    ]);
    expect(canMove(WEBHOOK_ENDPOINT_LIFECYCLE, "disabled_manual", "disable_for_failing")).toBe(false);
    expect(canMove(WEBHOOK_ENDPOINT_LIFECYCLE, "disabled_failing", "disable_for_insecure_url")).toBe(false);
    expect(endpointState({ status: "disabled", disabledReason: "failing" })).toBe("disabled_failing");
    expect(endpointState({ status: "disabled", disabledReason: "insecure_url" })).toBe("disabled_insecure_url");
    expect(endpointState({ status: "disabled", disabledReason: "manual" })).toBe("disabled_manual");
  });

  it("writes the new status and the move's event, with the endpoint as it became, in one transaction", async () => {
    const endpoint = await newEndpoint();
    const disabled = await db().$transaction(async (transaction) =>
      transitionWebhookEndpoint(transaction, (await lockWebhookEndpoint(transaction, endpoint.id))!, "disable_for_failing", { now: NOW }),
    );
    expect(disabled).toMatchObject({ status: "disabled", disabledReason: "failing", updatedAt: NOW });
    const events = await eventsOf(endpoint.projectId);
    expect(events).toEqual([{ type: "webhook_endpoint.disabled", object: expect.objectContaining({ id: endpoint.id, object: "webhook_endpoint", status: "disabled", disabled_reason: "failing" }), createdAt: NOW }]);
    expect(events[0]!.object).not.toHaveProperty("secret");

    const enabled = await db().$transaction(async (transaction) => transitionWebhookEndpoint(transaction, disabled, "enable", { now: NOW }));
    expect(enabled).toMatchObject({ status: "enabled", disabledReason: null, failingSince: null });
    expect((await eventsOf(endpoint.projectId)).map((event) => event.type)).toEqual(["webhook_endpoint.disabled", "webhook_endpoint.enabled"]);
  });

  it("refuses a move its table does not allow with 409 conflict, writing nothing", async () => {
    const endpoint = await newEndpoint("disabled", "manual");
    const refused = await db()
      .$transaction(async (transaction) => transitionWebhookEndpoint(transaction, endpoint, "disable_for_failing", { now: NOW }))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "conflict", message: "A webhook endpoint that is disabled cannot be disabled for failing." });
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ status: "disabled", disabledReason: "manual", updatedAt: endpoint.updatedAt });
    expect(await eventsOf(endpoint.projectId)).toEqual([]);
  });

  it("rolls the move back with the transaction it was part of", async () => {
    const endpoint = await newEndpoint();
    await expect(
      db().$transaction(async (transaction) => {
        await transitionWebhookEndpoint(transaction, endpoint, "disable", { now: NOW });
        throw new Error("the caller's later step failed");
      }),
    ).rejects.toThrow("later step failed");
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ status: "enabled" });
    expect(await eventsOf(endpoint.projectId)).toEqual([]);
  });
});

describe("the webhook delivery lifecycle", () => {
  async function pendingDelivery() {
    const endpoint = await newEndpoint();
    const [eventId] = await db().$transaction((transaction) =>
      recordEvents(transaction, [{ projectId: endpoint.projectId, environment: "sandbox", type: "application.created", object: { id: "app_x" }, createdAt: NOW }]),
    );
    return db().webhookDelivery.findFirstOrThrow({ where: { eventId, endpointId: endpoint.id } });
  }

  it("moves only a pending delivery, and every move ends the worker's claim", async () => {
    expect(Object.values(WEBHOOK_DELIVERY_LIFECYCLE.moves).every((rule) => rule.from.length === 1 && rule.from[0] === "pending")).toBe(true);
    const delivery = await pendingDelivery();
    await db().webhookDelivery.update({ where: { id: delivery.id }, data: { lockedUntil: new Date(NOW.getTime() + 60_000) } });
    const retryAt = new Date(NOW.getTime() + 60_000);
    expect(await transitionWebhookDelivery(db(), delivery.id, "schedule_retry", { now: NOW, changes: { attemptCount: 1, nextAttemptAt: retryAt } })).toBe(true);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "pending", attemptCount: 1, nextAttemptAt: retryAt, lockedUntil: null });

    expect(await transitionWebhookDelivery(db(), delivery.id, "succeed", { now: NOW, changes: { attemptCount: 2 } })).toBe(true);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "succeeded", attemptCount: 2, nextAttemptAt: null });

    // Finished: no further move takes effect.
    for (const trigger of ["abandon", "fail", "schedule_retry"] as const) {
      expect(await transitionWebhookDelivery(db(), delivery.id, trigger, { now: NOW })).toBe(false);
    }
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "succeeded" });
  });
});
