// The application lifecycle's one table and one mover (spec 3.1, lib/applications/state-machine.ts, transition.ts), against the
// real database: every legal move writes its status and its events in the caller's transaction, every illegal
// move is refused with 409 `conflict` before anything is written, and row locks serialise concurrent movers.
import { beforeEach, describe, expect, it } from "vitest";
import { APPLICATION_LIFECYCLE, type ApplicationTrigger } from "@/lib/applications/state-machine";
import { lockApplication, transitionApplication } from "@/lib/applications/transition";
import { openApplication, type NewApplication } from "@/lib/applications/create";
import { APPLICATION_STATUSES, type ApplicationStatus } from "@/lib/applications/schemas";
import { serializeApplication } from "@/lib/applications/serialize";
import { clock, freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { Prisma, type Application } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/errors";
import { newId, randomToken } from "@/lib/ids";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { inBatchedTransaction } from "@/lib/applications/batched-transaction";
import { canMove, IllegalTransitionError } from "@/lib/lifecycle";
import { createTestProject } from "../../helpers/partner";
import { sessionPid, untilSessionsWaitOn } from "../../helpers/row-locks";

const CREATED_AT = new Date("2027-03-01T09:00:00.000Z");
// Far in the future: the expiry sweeps of other test files run on the real clock and must never find these.
const EXPIRES_AT = new Date("2027-03-15T09:00:00.000Z");
const NOW = new Date("2027-03-02T10:30:00.000Z");

const TRIGGERS = Object.keys(APPLICATION_LIFECYCLE.moves) as ApplicationTrigger[];

// The table as spec 3.1 and the module's header comment describe it, written out independently of the code.
const EXPECTED_TABLE: Record<ApplicationTrigger, { from: ApplicationStatus[]; to: ApplicationStatus; events: string[] }> = {
  submit: { from: ["created"], to: "submitted", events: ["application.submitted"] },
  expire: { from: ["created"], to: "expired", events: ["application.expired"] },
  withdraw: { from: ["created", "submitted", "in_review", "approved", "declined"], to: "withdrawn", events: ["application.withdrawn"] },
  start_review: { from: ["submitted"], to: "in_review", events: [] },
  approve: { from: ["in_review", "approved", "declined"], to: "approved", events: ["decision.completed"] },
  decline: { from: ["in_review", "approved", "declined"], to: "declined", events: ["decision.completed"] },
  refer: { from: ["in_review", "approved", "declined"], to: "in_review", events: ["decision.completed", "decision.referred"] },
  fund: { from: ["approved"], to: "funded", events: ["offer.accepted", "application.funded"] },
};

const PROSE: Record<ApplicationTrigger, string> = {
  submit: "submitted",
  expire: "expired",
  withdraw: "withdrawn",
  start_review: "reviewed",
  approve: "approved",
  decline: "declined",
  refer: "referred",
  fund: "funded",
};

let project: ProjectCredentials;

beforeEach(async () => {
  project = await createTestProject();
  freezeClock(NOW);
});

/** What opening an application takes. */
function openingData() {
  return {
    id: newId("application"),
    projectId: project.project_id,
    environment: "sandbox" as const,
    companyNumber: "12345678",
    companyName: "Sandbox Trading 12345678 Ltd",
    companyKind: "private_limited_company" as const,
    incorporatedOn: "1969-07-01",
    amountPence: 2_500_000,
    termMonths: 24,
    purpose: "working_capital" as const,
    reference: "order-42",
    metadata: { crm_id: "C-7" },
    handoffToken: randomToken(32),
    expiresAt: EXPIRES_AT,
  } satisfies NewApplication;
}

function applicationData(overrides: Partial<Prisma.ApplicationUncheckedCreateInput> = {}) {
  return { ...openingData(), ...overrides };
}

/** An application inserted straight into the table, in any status, with no events. */
async function insertApplication(status: ApplicationStatus, overrides: Partial<Prisma.ApplicationUncheckedCreateInput> = {}): Promise<Application> {
  return db().application.create({ data: { ...applicationData(overrides), status, createdAt: CREATED_AT, updatedAt: CREATED_AT } });
}

/** A decision for the application, linked from it as decisioning links it. */
async function insertDecision(application: Application) {
  const decision = await db().decision.create({
    data: {
      id: newId("decision"),
      applicationId: application.id,
      projectId: application.projectId,
      environment: application.environment,
      outcome: "approved",
      approvedAmountPence: application.amountPence,
      aprBps: 1700,
      reasons: [],
      decidedBy: "sandbox",
      decidedAt: CREATED_AT,
      createdAt: CREATED_AT,
    },
  });
  await db().application.update({ where: { id: application.id }, data: { decisionId: decision.id } });
  return decision;
}

function projectEvents(projectId = project.project_id) {
  return db().event.findMany({ where: { projectId }, orderBy: { id: "asc" } });
}

async function reload(application: Application): Promise<Application> {
  return db().application.findUniqueOrThrow({ where: { id: application.id } });
}

/** Locks and moves in one transaction, as the services do. */
async function move(application: Application, trigger: ApplicationTrigger, options: Partial<Parameters<typeof transitionApplication>[3]> = {}) {
  return db().$transaction(async (transaction) => {
    const locked = (await lockApplication(transaction, application.id))!;
    return transitionApplication(transaction, locked, trigger, { now: clock.now(), ...options });
  });
}

const DECISION_OBJECT = {
  id: "dec_01jq0000000000000000000000",
  object: "decision",
  application_id: "app_placeholder",
  outcome: "approved",
  approved_amount_pence: 2_500_000,
  apr_bps: 1700,
  reference: "order-42",
};
const REFERRED_OBJECT = { ...DECISION_OBJECT, outcome: "referred", approved_amount_pence: 0, conditions: [{ code: "manual_review" }] };
const OFFER_OBJECT = { object: "offer", decision_id: DECISION_OBJECT.id, principal_pence: 2_500_000, apr_bps: 1700, term_months: 24 };

describe("the transition table", () => {
  it("allows exactly the moves spec 3.1 and the module's documented choices allow", () => {
    const table = Object.fromEntries(
      TRIGGERS.map((trigger) => {
        const rule = APPLICATION_LIFECYCLE.moves[trigger];
        return [trigger, { from: [...rule.from].sort(), to: rule.to, events: [...rule.events] }];
      }),
    );
    const expected = Object.fromEntries(
      Object.entries(EXPECTED_TABLE).map(([trigger, rule]) => [trigger, { ...rule, from: [...rule.from].sort() }]),
    );
    expect(table).toEqual(expected);
  });

  it.each(TRIGGERS.flatMap((trigger) => APPLICATION_STATUSES.map((status) => [trigger, status] as const)))(
    "canMove answers %s from %s as the table does",
    (trigger, status) => {
      expect(canMove(APPLICATION_LIFECYCLE, status, trigger)).toBe(EXPECTED_TABLE[trigger].from.includes(status));
    },
  );

  it("leaves funded, withdrawn and expired with no move out", () => {
    for (const status of ["funded", "withdrawn", "expired"] as const) {
      expect(TRIGGERS.filter((trigger) => canMove(APPLICATION_LIFECYCLE, status, trigger))).toEqual([]);
    }
  });
});

describe("opening an application: (none) → created", () => {
  it("creates the row as created and writes application.created with it, in the caller's transaction", async () => {
    const data = openingData();
    const opened = await inBatchedTransaction((statements) => openApplication(statements, data, clock.now()));

    expect(opened).toMatchObject({ id: data.id, status: "created", createdAt: NOW, updatedAt: NOW });
    const stored = await reload(opened);
    expect(stored.status).toBe("created");
    const events = await projectEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      projectId: project.project_id,
      environment: "sandbox",
      type: "application.created",
      apiVersion: "2026-11-01",
      createdAt: NOW,
    });
    expect(events[0]!.id).toMatch(/^evt_[0-9a-z]{26}$/);
    expect(events[0]!.object).toEqual(serializeApplication(stored));
    expect(events[0]!.object).toMatchObject({ id: data.id, object: "application", status: "created", created_at: NOW.toISOString(), decision: null });
  });

  it("writes neither the row nor the event when the caller's transaction fails afterwards", async () => {
    const data = openingData();
    await expect(
      inBatchedTransaction(async (statements) => {
        await openApplication(statements, data, clock.now());
        // A read sends the queued writes, so the rollback has something to undo.
        expect(await statements.rows(Prisma.sql`SELECT id FROM applications WHERE id = ${data.id}`)).toEqual([{ id: data.id }]);
        throw new Error("the caller fails after opening");
      }),
    ).rejects.toThrow("the caller fails after opening");

    expect(await db().application.findUnique({ where: { id: data.id } })).toBeNull();
    expect(await projectEvents()).toEqual([]);
  });
});

describe("moves that write an application event", () => {
  it.each([
    ["submit", "created", "submitted", "application.submitted"],
    ["expire", "created", "expired", "application.expired"],
    ["withdraw", "created", "withdrawn", "application.withdrawn"],
    ["withdraw", "submitted", "withdrawn", "application.withdrawn"],
    ["withdraw", "in_review", "withdrawn", "application.withdrawn"],
    ["withdraw", "approved", "withdrawn", "application.withdrawn"],
    ["withdraw", "declined", "withdrawn", "application.withdrawn"],
  ] as const)("%s moves %s to %s and writes %s carrying the moved application", async (trigger, from, to, eventType) => {
    const application = await insertApplication(from);

    const moved = await move(application, trigger);

    expect(moved).toMatchObject({ id: application.id, status: to, updatedAt: NOW });
    const stored = await reload(application);
    expect(stored.status).toBe(to);
    expect(stored.updatedAt).toEqual(NOW);
    const events = await projectEvents();
    expect(events.map((event) => event.type)).toEqual([eventType]);
    expect(events[0]).toMatchObject({ projectId: project.project_id, environment: "sandbox", createdAt: NOW });
    expect(events[0]!.object).toEqual(serializeApplication(stored));
    expect(events[0]!.object).toMatchObject({ id: application.id, status: to });
  });

  it("applies the move's other column changes and shows them in the event", async () => {
    const application = await insertApplication("approved");

    await move(application, "withdraw", { changes: { withdrawnAt: NOW, withdrawalReason: "found cheaper finance" } });

    const stored = await reload(application);
    expect(stored).toMatchObject({ status: "withdrawn", withdrawnAt: NOW, withdrawalReason: "found cheaper finance" });
    const [event] = await projectEvents();
    expect(event!.object).toMatchObject({ status: "withdrawn", withdrawn_at: NOW.toISOString(), withdrawal_reason: "found cheaper finance" });
  });

  it("approved → funded (fund) writes offer.accepted with the supplied offer, then application.funded", async () => {
    const application = await insertApplication("approved");
    const decisionId = newId("decision");
    await db().application.update({ where: { id: application.id }, data: { decisionId } });

    const moved = await move(application, "fund", { changes: { fundedAt: NOW }, eventObjects: { "offer.accepted": OFFER_OBJECT } });

    expect(moved.status).toBe("funded");
    const stored = await reload(application);
    expect(stored).toMatchObject({ status: "funded", fundedAt: NOW, updatedAt: NOW });
    const events = await projectEvents();
    expect(events.map((event) => event.type)).toEqual(["offer.accepted", "application.funded"]);
    expect(events[0]!.object).toEqual(OFFER_OBJECT);
    expect(events[1]!.object).toEqual(serializeApplication(stored));
    expect(events[1]!.object).toMatchObject({ status: "funded", funded_at: NOW.toISOString(), decision: decisionId });
    for (const event of events) expect(event).toMatchObject({ projectId: project.project_id, environment: "sandbox", createdAt: NOW });
  });
});

describe("decisioning moves", () => {
  it("submitted → in_review (start_review) writes no event", async () => {
    const application = await insertApplication("submitted");

    const moved = await move(application, "start_review");

    expect(moved.status).toBe("in_review");
    expect((await reload(application)).status).toBe("in_review");
    expect(await projectEvents()).toEqual([]);
  });

  it.each([
    ["approve", "in_review", "approved"],
    ["decline", "in_review", "declined"],
    ["approve", "declined", "approved"],
    ["decline", "approved", "declined"],
    ["approve", "approved", "approved"],
    ["decline", "declined", "declined"],
  ] as const)("%s moves %s to %s and writes decision.completed with the supplied decision", async (trigger, from, to) => {
    const application = await insertApplication(from);
    const decision = { ...DECISION_OBJECT, id: newId("decision"), application_id: application.id, outcome: to };

    const moved = await move(application, trigger, { changes: { decisionId: decision.id }, eventObjects: { "decision.completed": decision } });

    expect(moved.status).toBe(to);
    expect((await reload(application)).status).toBe(to);
    const events = await projectEvents();
    expect(events.map((event) => event.type)).toEqual(["decision.completed"]);
    expect(events[0]).toMatchObject({ projectId: project.project_id, environment: "sandbox", createdAt: NOW });
    expect(events[0]!.object).toEqual(decision);
  });

  it.each(["in_review", "approved", "declined"] as const)(
    "refer from %s leaves the application in_review and writes decision.completed then decision.referred",
    async (from) => {
      const application = await insertApplication(from);
      const completed = { ...DECISION_OBJECT, id: newId("decision"), application_id: application.id, outcome: "referred" };

      const moved = await move(application, "refer", {
        changes: { decisionId: completed.id },
        eventObjects: { "decision.completed": completed, "decision.referred": REFERRED_OBJECT },
      });

      expect(moved.status).toBe("in_review");
      expect(await reload(application)).toMatchObject({ status: "in_review", updatedAt: NOW });
      const events = await projectEvents();
      expect(events.map((event) => event.type)).toEqual(["decision.completed", "decision.referred"]);
      expect(events[0]!.object).toEqual(completed);
      expect(events[1]!.object).toEqual(REFERRED_OBJECT);
    },
  );
});

describe("illegal moves", () => {
  const illegal = TRIGGERS.flatMap((trigger) =>
    APPLICATION_STATUSES.filter((status) => !(APPLICATION_LIFECYCLE.moves[trigger].from as readonly string[]).includes(status)).map(
      (status) => [trigger, status] as const,
    ),
  );

  it("cover every status outside each trigger's from list (46 combinations)", () => {
    expect(illegal).toHaveLength(46);
  });

  it.each(illegal)("%s from %s throws IllegalTransitionError (409 conflict) and writes nothing", async (trigger, status) => {
    const application = await insertApplication(status);
    const before = await reload(application);

    // The caller catches and commits: the refusal must come before any write, not rely on a rollback.
    const error = await db().$transaction(async (transaction) => {
      const locked = (await lockApplication(transaction, application.id))!;
      try {
        await transitionApplication(transaction, locked, trigger, {
          now: clock.now(),
          changes: { withdrawnAt: NOW, fundedAt: NOW, submittedAt: NOW, decisionId: DECISION_OBJECT.id },
          eventObjects: { "decision.completed": DECISION_OBJECT, "decision.referred": REFERRED_OBJECT, "offer.accepted": OFFER_OBJECT },
        });
        return null;
      } catch (caught) {
        return caught;
      }
    });

    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "conflict", from: status, trigger, message: `An application that is ${status} cannot be ${PROSE[trigger]}.` });
    expect(await reload(application)).toEqual(before);
    expect(await projectEvents()).toEqual([]);
  });
});

describe("the event's data.object", () => {
  it("is the application after the change, with the application's project, environment and the move's time", async () => {
    const clockControl = freezeClock("2027-03-05T14:15:16.789Z");
    const application = await insertApplication("created", { environment: "live", companyNumber: "SC123456", companyName: "Sandbox Trading SC123456 Ltd" });
    const now = clockControl.advance(1_000);

    await move(application, "submit", { now, changes: { submittedAt: now, consentedAt: now, declaredAnnualTurnoverPence: 12_000_000 } });

    const events = await projectEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      projectId: project.project_id,
      environment: "live",
      type: "application.submitted",
      apiVersion: "2026-11-01",
      createdAt: new Date("2027-03-05T14:15:17.789Z"),
    });
    expect(events[0]!.object).toEqual({
      id: application.id,
      object: "application",
      livemode: true,
      status: "submitted",
      business: { company_number: "SC123456", name: "Sandbox Trading SC123456 Ltd" },
      amount_pence: 2_500_000,
      term_months: 24,
      product: "business_loan",
      purpose: "working_capital",
      reference: "order-42",
      handoff_url: `${config().APPLY_URL}/apply/${application.handoffToken}`,
      expires_at: "2027-03-15T09:00:00.000Z",
      created_at: "2027-03-01T09:00:00.000Z",
      submitted_at: "2027-03-05T14:15:17.789Z",
      withdrawn_at: null,
      withdrawal_reason: null,
      funded_at: null,
      decision: null,
      account_id: null,
      introduction_id: null,
      sub_account_id: null,
      metadata: { crm_id: "C-7" },
    });
  });

  it("shows the application's decision in the event of a later move", async () => {
    const application = await insertApplication("approved");
    const decision = await insertDecision(application);

    await move(application, "withdraw");

    const [event] = await projectEvents();
    expect(event!.object).toMatchObject({ status: "withdrawn", decision: decision.id });
  });
});

describe("atomicity", () => {
  it.each([
    ["submit", "created"],
    ["withdraw", "in_review"],
    ["fund", "approved"],
  ] as const)("a %s from %s leaves no status change and no event when the transaction throws afterwards", async (trigger, from) => {
    const application = await insertApplication(from);
    const before = await reload(application);

    await expect(
      db().$transaction(async (transaction) => {
        const locked = (await lockApplication(transaction, application.id))!;
        const moved = await transitionApplication(transaction, locked, trigger, {
          now: clock.now(),
          eventObjects: { "offer.accepted": OFFER_OBJECT },
        });
        expect(moved.status).toBe(APPLICATION_LIFECYCLE.moves[trigger].to);
        throw new Error("a later step of the same operation fails");
      }),
    ).rejects.toThrow("a later step of the same operation fails");

    expect(await reload(application)).toEqual(before);
    expect(await projectEvents()).toEqual([]);
  });
});

describe("a move whose non-application event has no supplied object", () => {
  it("fund without offer.accepted's object throws and, rolled back with its transaction, writes nothing", async () => {
    const application = await insertApplication("approved");
    const before = await reload(application);

    await expect(move(application, "fund", { changes: { fundedAt: NOW } })).rejects.toThrow(
      "The fund move writes offer.accepted but no object was supplied for it",
    );

    expect(await reload(application)).toEqual(before);
    expect(await projectEvents()).toEqual([]);
  });

  it.each([
    ["fund", "approved", { changes: { fundedAt: NOW } }, "The fund move writes offer.accepted but no object was supplied for it"],
    ["approve", "in_review", {}, "The approve move writes decision.completed but no object was supplied for it"],
    ["refer", "in_review", { eventObjects: { "decision.completed": DECISION_OBJECT } }, "The refer move writes decision.referred but no object was supplied for it"],
  ] as const)("%s from %s throws before writing, so a caller that catches and commits has changed nothing", async (trigger, from, options, message) => {
    const application = await insertApplication(from);
    const before = await reload(application);

    const error = await db().$transaction(async (transaction) => {
      const locked = (await lockApplication(transaction, application.id))!;
      try {
        await transitionApplication(transaction, locked, trigger, { now: clock.now(), ...options });
        return null;
      } catch (caught) {
        return caught;
      }
    });

    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(message);
    expect(await reload(application)).toEqual(before);
    expect(await projectEvents()).toEqual([]);
  });
});

describe("lockApplication", () => {
  it("returns the application with the id", async () => {
    const application = await insertApplication("created");

    const locked = await db().$transaction((transaction) => lockApplication(transaction, application.id));

    expect(locked).toEqual(await reload(application));
  });

  it("returns null for an unknown id", async () => {
    expect(await db().$transaction((transaction) => lockApplication(transaction, newId("application")))).toBeNull();
  });

  it("serialises two concurrent withdraws so exactly one moves the application and writes the event", async () => {
    const application = await insertApplication("approved");
    let holders = 0;

    async function withdrawOnce(): Promise<"withdrew" | "already_withdrawn"> {
      return db().$transaction(
        async (transaction) => {
          const locked = (await lockApplication(transaction, application.id))!;
          holders += 1;
          // The first to hold the lock waits until the other is queued behind it, so the two really overlap.
          if (holders === 1) await untilSessionsWaitOn(await sessionPid(transaction), 1);
          if (locked.status === "withdrawn") return "already_withdrawn";
          await transitionApplication(transaction, locked, "withdraw", { now: clock.now(), changes: { withdrawnAt: clock.now() } });
          return "withdrew";
        },
        { timeout: 10_000 },
      );
    }

    const results = await Promise.all([withdrawOnce(), withdrawOnce()]);

    expect(results.sort()).toEqual(["already_withdrawn", "withdrew"]);
    expect((await reload(application)).status).toBe("withdrawn");
    const events = await projectEvents();
    expect(events.map((event) => event.type)).toEqual(["application.withdrawn"]);
  });
});
