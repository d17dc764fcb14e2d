// The application create records its event and deliveries through its batched transaction
// (lib/applications/create.ts); every other change records them through Prisma (lib/events/events.ts). Both
// must write the same rows, so a webhook never depends on which path made the change.
import { describe, expect, it } from "vitest";
import { inBatchedTransaction } from "@/lib/applications/batched-transaction";
import { recordEventsInBatch } from "@/lib/applications/create";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { eventRows, recordEvents, type NewEvent } from "@/lib/events/events";
import { isIdOf, newId } from "@/lib/ids";
import { createTestProject } from "../../helpers/partner";

async function endpointFor(projectId: string, environment: "sandbox" | "live", enabledEvents: string[], status: "enabled" | "disabled" = "enabled") {
  const now = new Date("2030-05-01T08:00:00.000Z");
  return db().webhookEndpoint.create({
    data: { id: newId("webhookEndpoint"), projectId, environment, url: "https://hooks.example.com/x", enabledEvents, status, secret: `whsec_${"y".repeat(40)}`, createdAt: now, updatedAt: now },
  });
}

/** What was written for `eventIds`: the events and their deliveries, ids of the rows left out. */
async function written(eventIds: string[]) {
  const events = await db().event.findMany({ where: { id: { in: eventIds } }, orderBy: { id: "asc" } });
  const deliveries = await db().webhookDelivery.findMany({ where: { eventId: { in: eventIds } }, orderBy: [{ eventId: "asc" }, { endpointId: "asc" }] });
  return {
    events: events.map(({ id: _id, ...event }) => event),
    deliveries: deliveries.map(({ id: _id, eventId, ...delivery }) => ({ event: eventIds.indexOf(eventId), ...delivery })),
  };
}

describe("events recorded by the batched create and through Prisma", () => {
  it("write the same event rows and the same deliveries to the same endpoints", async () => {
    const project = await createTestProject();
    const everything = await endpointFor(project.project_id, "sandbox", ["*"]);
    const decisionsOnly = await endpointFor(project.project_id, "sandbox", ["decision.completed"]);
    await endpointFor(project.project_id, "sandbox", ["*"], "disabled");
    await endpointFor(project.project_id, "live", ["*"]);
    // Events dated ahead of real time, as a sandbox test clock dates them: deliveries are still due at once.
    const at = new Date("2030-06-15T09:00:00.000Z");
    const realNow = new Date("2030-05-01T09:00:00.000Z");
    freezeClock(realNow);
    const events: NewEvent[] = [
      { projectId: project.project_id, environment: "sandbox", type: "application.created", object: { id: "app_1", nested: { quote: "it's", amount_pence: 100 } }, createdAt: at },
      { projectId: project.project_id, environment: "sandbox", type: "decision.completed", object: { id: "dec_1", outcome: "approved" }, createdAt: at },
    ];

    const throughPrisma = await db().$transaction((transaction) => recordEvents(transaction, events));
    const batchedRows = eventRows(events);
    await inBatchedTransaction((statements) => recordEventsInBatch(statements, batchedRows));
    const batched = batchedRows.map((row) => row.id);

    const prismaWritten = await written(throughPrisma);
    expect(await written(batched)).toEqual(prismaWritten);
    expect(prismaWritten.events.map((event) => event.createdAt)).toEqual([at, at]);
    for (const delivery of prismaWritten.deliveries) expect([delivery.nextAttemptAt, delivery.createdAt, delivery.updatedAt]).toEqual([realNow, realNow, realNow]);
    const batchedIds = (await db().webhookDelivery.findMany({ where: { eventId: { in: batched } }, select: { id: true } })).map((row) => row.id);
    expect(batchedIds.every((id) => isIdOf("webhookDelivery", id))).toBe(true);
    expect(new Set(batchedIds).size).toBe(3);
    expect(prismaWritten.deliveries.map((delivery) => [delivery.event, delivery.endpointId])).toEqual(
      [[0, everything.id], [1, everything.id], [1, decisionsOnly.id]].sort((a, b) => Number(a[0]) - Number(b[0]) || String(a[1]).localeCompare(String(b[1]))),
    );
  });

  it("write no deliveries for the platform's own events, which have no project", async () => {
    const rows = eventRows([{ projectId: null, environment: "live", type: "enquiry.created", object: { id: "enq_1" }, createdAt: new Date("2030-05-01T10:00:00.000Z") }]);
    await inBatchedTransaction((statements) => recordEventsInBatch(statements, rows));
    expect(await written([rows[0]!.id])).toMatchObject({ events: [{ projectId: null, type: "enquiry.created" }], deliveries: [] });
  });
});
