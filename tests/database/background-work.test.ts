// Background work against the real database (spec 3.1 lifecycle, docs/architecture.md): the idempotent
// operations (decisioning, expiry) on their own, then the two drivers that run them — the in-process local
// driver and the Inngest functions under @inngest/test.
//
// Applications are set up through the services. Where a test must see an application in `submitted` before
// anything decides it, the row is moved there directly rather than through submitApplication, whose
// after-commit hook hands it to this process's driver at once.
//
// The file has a database of its own (tests/setup/each-file.ts), so a count a sweep returns is exactly the work
// this file left due.
import { InngestTestEngine } from "@inngest/test";
import type { EventPayload } from "inngest";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApplication } from "@/lib/applications/create";
import { countExpiredApplications, findExpiredApplications, submitApplication } from "@/lib/applications/service";
import { expireOnItsClock } from "@/lib/applications/background";
import { freezeClock, manualTimers, restoreTimers } from "@/lib/clock";
import { db, transact } from "@/lib/db";
import { findApplicationsAwaitingDecision } from "@/lib/decisions/service";
import { decideOnItsClock } from "@/lib/decisions/background";
import type { ApplicationStatus } from "@/lib/applications/schemas";
import type { Tenant } from "@/lib/tenant";
import { newId } from "@/lib/ids";
import { BACKGROUND_CATALOGUE, BACKGROUND_OPERATIONS } from "@/lib/background/catalogue";
import { listenForCommits } from "@/lib/background/start";
import type { BackgroundOperation } from "@/lib/background-operation";
import { onCommitted } from "@/lib/commit-signals";
import { LocalDriver, runDueWork } from "@/lib/jobs/local-driver";
import { readQueueStatus } from "@/lib/jobs/queue";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { cronFunctions, decideApplication } from "@/inngest/functions";
import { createTestProject } from "../helpers/partner";
import { eventually } from "../helpers/eventually";
import { tenantNow } from "@/lib/tenant-clock";

const DAY_MS = 86_400_000;
const EXPIRY_MS = 14 * DAY_MS;
/** Wider than any sweep's batch here, so a query's limit never hides a row. */
const EVERYTHING = 100_000;
/** The event a cron run starts with. */
const CRON_TICK: [EventPayload] = [{ name: "inngest/scheduled.timer", data: {} }];
const sweepDecisioning = cronFunctions.get("sweep-decisioning")!;
const expireApplications = cronFunctions.get("expire-applications")!;
const maintenance = cronFunctions.get("maintenance")!;

let project: ProjectCredentials;

/** The submissions announced as committed, in order: what this process's driver is handed. */
const committedSubmissions: string[] = [];
beforeAll(() => {
  // As the server does as it starts: a submission that commits is handed to this process's driver.
  listenForCommits();
  onCommitted("application.submitted", (id) => committedSubmissions.push(id));
});

beforeEach(async () => {
  project = await createTestProject();
});

function tenantOf(credentials: ProjectCredentials): Tenant {
  return { projectId: credentials.project_id, environment: "sandbox" };
}

/** A new sandbox application (`created`) for £50,000 over 24 months; returns its id. */
async function newApplication(companyNumber = "12345678"): Promise<string> {
  const application = await createApplication({
    tenant: tenantOf(project), now: await tenantNow(tenantOf(project)),
    input: {
      business: { company_number: companyNumber },
      amount_pence: 5_000_000,
      term_months: 24,
      applicant: { email: "director@example.co.uk" },
      reference: `ref-${companyNumber}`,
    },
  });
  return application.id;
}

/** Moves the row straight to `status`, with no event and no after-commit hook: work left for a driver to find. */
async function placeIn(id: string, status: ApplicationStatus): Promise<void> {
  await db().application.update({ where: { id }, data: { status } });
}

async function newSubmittedApplication(companyNumber = "12345678"): Promise<string> {
  const id = await newApplication(companyNumber);
  await placeIn(id, "submitted");
  return id;
}

/** A `created` application whose expiry has already passed by the real clock. */
async function newOverdueApplication(): Promise<string> {
  const id = await newApplication();
  await db().application.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  return id;
}

async function statusOf(id: string): Promise<ApplicationStatus> {
  return (await db().application.findUniqueOrThrow({ where: { id } })).status;
}

async function decisionsOf(id: string) {
  return db().decision.findMany({ where: { applicationId: id } });
}

/** Types of the events about one application (the application itself, or its decision), oldest first. */
async function eventTypesFor(applicationId: string): Promise<string[]> {
  const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" } });
  return events
    .filter((event) => {
      const object = event.object as { id?: string; application_id?: string };
      return object.id === applicationId || object.application_id === applicationId;
    })
    .map((event) => event.type);
}

/** Reads the database until the application is in `status`: the work being waited for is a driver's own. */
async function waitForStatus(id: string, status: ApplicationStatus): Promise<void> {
  await eventually(() => statusOf(id), (current) => current === status, { timeoutMs: 2_000 });
}

describe("decideOnItsClock", () => {
  it("decides a submitted sandbox application: approved, one decision, and decision.completed", async () => {
    const id = await newSubmittedApplication();
    expect(await findApplicationsAwaitingDecision(EVERYTHING)).toContain(id);

    expect(await decideOnItsClock(id)).toBe("decided");

    expect(await statusOf(id)).toBe("approved");
    const decisions = await decisionsOf(id);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      projectId: project.project_id,
      environment: "sandbox",
      version: 1,
      outcome: "approved",
      approvedAmountPence: 5_000_000,
      aprBps: 1700,
      reasons: [],
      decidedBy: "sandbox",
    });
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
    expect(await findApplicationsAwaitingDecision(EVERYTHING)).not.toContain(id);
  });

  it("does nothing the second time: no new decision version and no new events", async () => {
    const id = await newSubmittedApplication();
    expect(await decideOnItsClock(id)).toBe("decided");
    const [first] = await decisionsOf(id);

    expect(await decideOnItsClock(id)).toBe("nothing_to_do");

    expect(await decisionsOf(id)).toEqual([first]);
    expect(first!.version).toBe(1);
    expect(await statusOf(id)).toBe("approved");
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("has nothing to do for an unknown application id", async () => {
    expect(await decideOnItsClock("app_00000000000000000000000000")).toBe("nothing_to_do");
  });

  it("leaves an application the applicant has not submitted alone", async () => {
    const id = await newApplication();

    expect(await decideOnItsClock(id)).toBe("nothing_to_do");

    expect(await statusOf(id)).toBe("created");
    expect(await decisionsOf(id)).toEqual([]);
    expect(await eventTypesFor(id)).toEqual(["application.created"]);
  });

  it("decides an application left in_review without a decision, as after a crash between the two moves", async () => {
    const id = await newApplication();
    await placeIn(id, "in_review");
    expect(await findApplicationsAwaitingDecision(EVERYTHING)).toContain(id);

    expect(await decideOnItsClock(id)).toBe("decided");

    expect(await statusOf(id)).toBe("approved");
    expect((await decisionsOf(id)).map((decision) => [decision.outcome, decision.version])).toEqual([["approved", 1]]);
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("declines by the sandbox rule (suffix 0001) and moves the application to declined", async () => {
    const id = await newSubmittedApplication("12340001");

    expect(await decideOnItsClock(id)).toBe("decided");

    expect(await statusOf(id)).toBe("declined");
    expect(await decisionsOf(id)).toMatchObject([{ outcome: "declined", reasons: ["adverse_credit"], approvedAmountPence: 0, version: 1 }]);
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("keeps a referred application (suffix 0006) in_review with a referred decision, and a second run does nothing", async () => {
    const id = await newSubmittedApplication("12340006");

    expect(await decideOnItsClock(id)).toBe("decided");

    expect(await statusOf(id)).toBe("in_review");
    const decisions = await decisionsOf(id);
    expect(decisions).toMatchObject([{ outcome: "referred", version: 1, approvedAmountPence: 0 }]);
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed", "decision.referred"]);
    // In review but decided: not work for the sweeps.
    expect(await findApplicationsAwaitingDecision(EVERYTHING)).not.toContain(id);

    expect(await decideOnItsClock(id)).toBe("nothing_to_do");

    expect(await decisionsOf(id)).toEqual(decisions);
    expect(await statusOf(id)).toBe("in_review");
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed", "decision.referred"]);
  });

  it("reports busy while another transaction holds the application's row, and decides once it is released", async () => {
    const id = await newSubmittedApplication();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let signalLocked!: () => void;
    const locked = new Promise<void>((resolve) => (signalLocked = resolve));
    const holder = db().$transaction(
      async (transaction) => {
        await transaction.$queryRaw`SELECT id FROM applications WHERE id = ${id} FOR UPDATE`;
        signalLocked();
        await released;
      },
      { timeout: 10_000 },
    );
    await locked;
    try {
      expect(await decideOnItsClock(id)).toBe("busy");
      expect(await statusOf(id)).toBe("submitted");
      expect(await decisionsOf(id)).toEqual([]);
    } finally {
      release();
      await holder;
    }

    expect(await decideOnItsClock(id)).toBe("decided");
    expect(await statusOf(id)).toBe("approved");
  });
});

describe("expiry", () => {
  it("expires a created application at exactly expires_at (14 days by default), not a millisecond before", async () => {
    const T0 = new Date("2001-02-03T04:05:06.789Z");
    const clock = freezeClock(T0);
    const id = await newApplication();
    const row = await db().application.findUniqueOrThrow({ where: { id } });
    expect(row.createdAt).toEqual(T0);
    expect(row.expiresAt).toEqual(new Date(T0.getTime() + EXPIRY_MS));

    clock.set(new Date(T0.getTime() + EXPIRY_MS - 1));
    expect(await findExpiredApplications(EVERYTHING)).not.toContain(id);
    expect(await expireOnItsClock(id)).toBeNull();
    expect(await statusOf(id)).toBe("created");

    clock.set(new Date(T0.getTime() + EXPIRY_MS));
    expect(await findExpiredApplications(EVERYTHING)).toContain(id);
    const expired = await expireOnItsClock(id);
    expect(expired).toMatchObject({ id, status: "expired", updatedAt: new Date(T0.getTime() + EXPIRY_MS), expiresAt: new Date(T0.getTime() + EXPIRY_MS) });
    expect(await statusOf(id)).toBe("expired");
    expect(await eventTypesFor(id)).toEqual(["application.created", "application.expired"]);
    expect(await findExpiredApplications(EVERYTHING)).not.toContain(id);

    expect(await expireOnItsClock(id)).toBeNull();
    expect(await statusOf(id)).toBe("expired");
    expect(await eventTypesFor(id)).toEqual(["application.created", "application.expired"]);
  });

  it("never expires a submitted application, however long it waits", async () => {
    const T0 = new Date("2001-03-04T05:06:07.890Z");
    const clock = freezeClock(T0);
    const id = await newSubmittedApplication();

    clock.set(new Date(T0.getTime() + 90 * DAY_MS));
    expect(await findExpiredApplications(EVERYTHING)).not.toContain(id);
    expect(await expireOnItsClock(id)).toBeNull();

    expect(await statusOf(id)).toBe("submitted");
    expect(await eventTypesFor(id)).toEqual(["application.created"]);
    // Settle it, so it does not linger as decisioning work for the tests after it.
    expect(await decideOnItsClock(id)).toBe("decided");
  });

  it("counts an overdue application as due work in countExpiredApplications and the queue status until it expires", async () => {
    const T0 = new Date("2001-04-05T06:07:08.901Z");
    const clock = freezeClock(T0);
    const id = await newApplication();
    const justBefore = new Date(T0.getTime() + EXPIRY_MS - 1);
    const due = new Date(T0.getTime() + EXPIRY_MS);

    expect(await dueWorkGrowth(clock, justBefore, due)).toEqual({ expired: 1, pending: 1 });

    clock.set(due);
    expect(await expireOnItsClock(id)).not.toBeNull();
    expect(await dueWorkGrowth(clock, justBefore, due)).toEqual({ expired: 0, pending: 0 });
  });
});

/** How much countExpiredApplications and readQueueStatus(BACKGROUND_OPERATIONS).pending grow from one instant of the frozen clock to another. */
async function dueWorkGrowth(clock: ReturnType<typeof freezeClock>, from: Date, to: Date): Promise<{ expired: number; pending: number }> {
  clock.set(from);
  const [expiredFrom, pendingFrom] = [await countExpiredApplications(), (await readQueueStatus(BACKGROUND_OPERATIONS)).pending];
  clock.set(to);
  const [expiredTo, pendingTo] = [await countExpiredApplications(), (await readQueueStatus(BACKGROUND_OPERATIONS)).pending];
  return { expired: expiredTo - expiredFrom, pending: pendingTo - pendingFrom };
}

describe("the local driver", () => {
  let driver: LocalDriver | undefined;

  afterEach(() => {
    driver?.stop();
    driver = undefined;
  });

  it("runDueWork decides everything awaiting a decision and expires everything overdue in one pass", async () => {
    const submitted = [await newSubmittedApplication(), await newSubmittedApplication("12340002"), await newSubmittedApplication("12340006")];
    const crashed = await newApplication();
    await placeIn(crashed, "in_review");
    const overdue = [await newOverdueApplication(), await newOverdueApplication()];
    const open = await newApplication();

    const result = await runDueWork(BACKGROUND_OPERATIONS);

    expect(result).toEqual({ decided: 4, expired: 2, attempted: 0, collected: 0, paidOut: 0 });
    expect(await Promise.all([...submitted, crashed].map(statusOf))).toEqual(["approved", "declined", "in_review", "approved"]);
    for (const id of [...submitted, crashed]) expect((await decisionsOf(id)).map((decision) => decision.version)).toEqual([1]);
    expect(await Promise.all(overdue.map(statusOf))).toEqual(["expired", "expired"]);
    for (const id of overdue) expect(await eventTypesFor(id)).toEqual(["application.created", "application.expired"]);
    expect(await statusOf(open)).toBe("created");
  });

  it("runDueWork finds nothing left to do on a second pass", async () => {
    const submitted = await newSubmittedApplication();
    const overdue = await newOverdueApplication();
    await runDueWork(BACKGROUND_OPERATIONS);
    const eventsAfterFirst = [await eventTypesFor(submitted), await eventTypesFor(overdue)];

    expect(await runDueWork(BACKGROUND_OPERATIONS)).toEqual({ decided: 0, expired: 0, attempted: 0, collected: 0, paidOut: 0 });
    expect([await eventTypesFor(submitted), await eventTypesFor(overdue)]).toEqual(eventsAfterFirst);
    expect((await decisionsOf(submitted)).map((decision) => decision.version)).toEqual([1]);
  });

  it("decides each application exactly once when two passes run at the same time", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push(await newSubmittedApplication());

    const [left, right] = await Promise.all([runDueWork(BACKGROUND_OPERATIONS), runDueWork(BACKGROUND_OPERATIONS)]);

    expect(left.decided + right.decided).toBe(6);
    for (const id of ids) {
      expect(await statusOf(id)).toBe("approved");
      expect((await decisionsOf(id)).map((decision) => decision.version)).toEqual([1]);
      expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
    }
  });

  it("decides a submitted application straight after commit through applicationSubmitted", async () => {
    const id = await newSubmittedApplication();
    driver = new LocalDriver(BACKGROUND_CATALOGUE);

    driver.applicationSubmitted(id);

    await waitForStatus(id, "approved");
    expect((await decisionsOf(id)).map((decision) => [decision.outcome, decision.version])).toEqual([["approved", 1]]);
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("is the process's driver: submitApplication's after-commit hook gets the application decided within seconds", async () => {
    const id = await newApplication();

    const submitted = await submitApplication({ tenant: tenantOf(project), now: await tenantNow(tenantOf(project)), id });
    expect(submitted.status).toBe("submitted");

    await waitForStatus(id, "approved");
    expect(await eventTypesFor(id)).toEqual(["application.created", "application.submitted", "decision.completed"]);
  });

  it("queues a submit made in a caller's transaction only once that transaction has committed", async () => {
    const id = await newApplication();

    await transact(async (transaction) => {
      await submitApplication({ tenant: tenantOf(project), now: await tenantNow(tenantOf(project)), id, transaction });
      // Queued now, the decision would find the row locked by this transaction and skip it as busy.
      expect(committedSubmissions).not.toContain(id);
    });
    expect(committedSubmissions).toContain(id);

    await waitForStatus(id, "approved");
    expect(await eventTypesFor(id)).toEqual(["application.created", "application.submitted", "decision.completed"]);
  });

  it("queues nothing for a submit whose caller's transaction rolls back", async () => {
    const id = await newApplication();

    await expect(
      transact(async (transaction) => {
        await submitApplication({ tenant: tenantOf(project), now: await tenantNow(tenantOf(project)), id, transaction });
        throw new Error("the caller's next write failed");
      }),
    ).rejects.toThrow("the caller's next write failed");

    expect(committedSubmissions).not.toContain(id);
    expect(await statusOf(id)).toBe("created");
    expect(await eventTypesFor(id)).toEqual(["application.created"]);
  });

  it("sweeps due work on its interval once started, and runs nothing more once stopped", async () => {
    const sweepTimers = manualTimers();
    try {
      const sweepsStarted: string[] = [];
      const operations = BACKGROUND_CATALOGUE.operations.map((operation): BackgroundOperation => {
        if (operation.kind === "pass") return { ...operation, run: () => (sweepsStarted.push(operation.id), operation.run()) };
        return { ...operation, find: (limit) => (sweepsStarted.push(operation.id), operation.find(limit)) };
      });
      driver = new LocalDriver({ ...BACKGROUND_CATALOGUE, operations, intervalsMs: { "sweep-decisioning": 50, "expire-applications": 50 } });
      driver.start();

      const submitted = await newSubmittedApplication();
      const overdue = await newOverdueApplication();
      sweepTimers.advance(49);
      expect(sweepsStarted).toEqual([]);
      sweepTimers.advance(1);
      expect(sweepsStarted.sort()).toEqual(["expire-applications", "sweep-decisioning"]);
      await waitForStatus(submitted, "approved");
      await waitForStatus(overdue, "expired");
      expect(await eventTypesFor(submitted)).toEqual(["application.created", "decision.completed"]);

      driver.stop();
      // Six sweep intervals, and every other operation's: a sweep still scheduled would start as its timer fires.
      sweepTimers.advance(3_600_000);
      expect(sweepsStarted).toHaveLength(2);
    } finally {
      restoreTimers();
    }
  });
});

describe("the Inngest functions", () => {
  it("decide-application decides the application named by lending/application.submitted, then has nothing to do", async () => {
    const id = await newSubmittedApplication();
    // One engine models one run and replays its steps' memoized results; a duplicate event starts a new run.
    const newRun = () =>
      new InngestTestEngine({
        function: decideApplication,
        events: [{ name: "lending/application.submitted", data: { application_id: id } }],
      });

    const first = await newRun().execute();
    expect(first.error).toBeUndefined();
    expect(first.result).toBe("decided");
    expect(first.ctx.step.run).toHaveBeenCalledWith("decide", expect.any(Function));
    expect(await statusOf(id)).toBe("approved");
    expect((await decisionsOf(id)).map((decision) => [decision.outcome, decision.version])).toEqual([["approved", 1]]);

    const second = await newRun().execute();
    expect(second.error).toBeUndefined();
    expect(second.result).toBe("nothing_to_do");
    expect((await decisionsOf(id)).map((decision) => decision.version)).toEqual([1]);
    expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("sweep-decisioning decides every application awaiting a decision and returns how many it found", async () => {
    const submitted = [await newSubmittedApplication(), await newSubmittedApplication("12340007")];
    const crashed = await newApplication();
    await placeIn(crashed, "in_review");
    const engine = new InngestTestEngine({ function: sweepDecisioning, events: CRON_TICK });

    const { result, error } = await engine.execute();

    expect(error).toBeUndefined();
    expect(result).toEqual({ decided: 3 });
    expect(await Promise.all([...submitted, crashed].map(statusOf))).toEqual(["approved", "approved", "approved"]);
    expect(await decisionsOf(submitted[1]!)).toMatchObject([{ outcome: "approved", approvedAmountPence: 2_500_000, version: 1 }]);
    for (const id of [...submitted, crashed]) expect(await eventTypesFor(id)).toEqual(["application.created", "decision.completed"]);
  });

  it("expire-applications expires every overdue created application and returns how many it found", async () => {
    const overdue = [await newOverdueApplication(), await newOverdueApplication()];
    const open = await newApplication();
    const engine = new InngestTestEngine({ function: expireApplications, events: CRON_TICK });

    const { result, error } = await engine.execute();

    expect(error).toBeUndefined();
    expect(result).toEqual({ expired: 2 });
    expect(await Promise.all(overdue.map(statusOf))).toEqual(["expired", "expired"]);
    for (const id of overdue) expect(await eventTypesFor(id)).toEqual(["application.created", "application.expired"]);
    expect(await statusOf(open)).toBe("created");
  });

  it("maintenance prunes idempotency keys past their retention and keeps the rest", async () => {
    const now = Date.now();
    const key = (name: string, expiresAt: Date) => ({
      id: newId("idempotencyKey"),
      projectId: project.project_id,
      environment: "sandbox" as const,
      key: name,
      fingerprint: "f".repeat(64),
      status: "completed" as const,
      responseStatus: 201,
      responseBody: {},
      lockedAt: new Date(now - 2 * DAY_MS),
      createdAt: new Date(now - 2 * DAY_MS),
      expiresAt,
    });
    await db().idempotencyKey.createMany({ data: [key("stale", new Date(now - DAY_MS)), key("fresh", new Date(now + DAY_MS))] });
    const engine = new InngestTestEngine({ function: maintenance, events: CRON_TICK });

    const { result, error } = await engine.execute();

    expect(error).toBeUndefined();
    expect((result as { idempotencyKeysPruned: number }).idempotencyKeysPruned).toBe(1);
    expect(Object.keys(result as object)).toEqual(["idempotencyKeysPruned", "eventsPruned", "enquiriesPruned", "supportSessionsPruned", "mcpToolCallsPruned", "registryLookupsPruned", "signInArtifactsPruned", "usageDaysPruned", "insecureWebhookEndpointsDisabled", "personalDataErased"]);
    const left = await db().idempotencyKey.findMany({ where: { projectId: project.project_id }, select: { key: true } });
    expect(left).toEqual([{ key: "fresh" }]);
  });
});
