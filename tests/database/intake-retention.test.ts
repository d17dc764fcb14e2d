// Retention of the public intake (docs/public-api.md): enquiries are kept 90 days from when they were sent,
// support sessions 30 days from their last message, then the hourly `maintenance` operation of the catalogue
// (lib/background/catalogue.ts) deletes them, timed by the clock. Runs in a database of its own: maintenance deletes
// across the platform, so here its counts are exact and the rows of files running alongside are never touched.
import { describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ENQUIRY_RETENTION_MS, createEnquiry } from "@/lib/enquiries/service";
import { BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import type { Pass } from "@/lib/background-operation";
import { SUPPORT_SESSION_RETENTION_MS, sendSupportMessage } from "@/lib/support/chat";


const DAY_MS = 86_400_000;
const T0 = new Date("2030-06-01T09:00:00.000Z");
const at = (offsetMs: number) => new Date(T0.getTime() + offsetMs);
const maintenance = BACKGROUND_OPERATIONS.find((operation): operation is Pass => operation.id === "maintenance")!;

async function enquiryAt(time: Date): Promise<string> {
  freezeClock(time);
  return (await createEnquiry({ input: { form: "lead", email: "visitor@example.co.uk", message: "Call me back" } })).id;
}

/** A support session with a message at each of `times` (each within the 30 idle minutes of the one before). */
async function sessionWithMessagesAt(...times: Date[]): Promise<string> {
  const clock = freezeClock(times[0]!);
  const { session_id: id } = await sendSupportMessage({ message: "What can I borrow?" });
  for (const time of times.slice(1)) {
    clock.set(time);
    await sendSupportMessage({ message: "And for how long?", session_id: id });
  }
  return id;
}

const enquiryIds = async () => (await db().enquiry.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((row) => row.id);
const sessionIds = async () => (await db().supportSession.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((row) => row.id);

describe("the public intake's retention", () => {
  it("is 90 days for enquiries and 30 days for support sessions", () => {
    expect(ENQUIRY_RETENTION_MS).toBe(90 * DAY_MS);
    expect(SUPPORT_SESSION_RETENTION_MS).toBe(30 * DAY_MS);
  });

  it("lets the maintenance operation delete what is past it and keep the rest", async () => {
    const cutoff = at(100 * DAY_MS);
    const enquiriesSince = (offsetMs: number) => enquiryAt(new Date(cutoff.getTime() - ENQUIRY_RETENTION_MS + offsetMs));
    const sessionSince = (offsetMs: number) => new Date(cutoff.getTime() - SUPPORT_SESSION_RETENTION_MS + offsetMs);
    await enquiryAt(at(0));
    await enquiriesSince(-1);
    const kept = [await enquiriesSince(0), await enquiriesSince(89 * DAY_MS)];
    await sessionWithMessagesAt(at(0));
    await sessionWithMessagesAt(sessionSince(-1));
    // A session is kept from its last message: this one started 10 minutes before the 30 days began.
    const keptSessions = [await sessionWithMessagesAt(sessionSince(-10 * 60_000), sessionSince(0)), await sessionWithMessagesAt(sessionSince(29 * DAY_MS))];
    freezeClock(cutoff);

    const report = await maintenance.run();

    expect(report).toMatchObject({ enquiriesPruned: 2, supportSessionsPruned: 2 });
    expect(await enquiryIds()).toEqual(kept.sort());
    expect(await sessionIds()).toEqual(keptSessions.sort());
  });

  it("deletes nothing more when run again: the operation is idempotent", async () => {
    const before = { enquiries: await enquiryIds(), sessions: await sessionIds() };
    expect(await maintenance.run()).toMatchObject({ enquiriesPruned: 0, supportSessionsPruned: 0 });
    expect({ enquiries: await enquiryIds(), sessions: await sessionIds() }).toEqual(before);
  });
});
