// The payment lifecycle's one table and one mover (lib/payments/state-machine.ts, transition.ts), against the real database:
// every allowed move writes its status, its timestamps and its event in the caller's transaction; every refused
// move is 409 `conflict` and writes nothing.
import { beforeEach, describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { PAYMENT_STATUSES } from "@/lib/payments/schemas";
import { canMove } from "@/lib/lifecycle";
import { PAYMENT_LIFECYCLE, type PaymentTrigger } from "@/lib/payments/state-machine";
import { createPayment } from "@/lib/payments/create";
import { lockPayment, transitionPayment } from "@/lib/payments/transition";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "../accounts/helpers";

const NOW = new Date("2027-06-10T09:00:00.000Z");

type Status = (typeof PAYMENT_STATUSES)[number];

const EXPECTED_TABLE: Record<PaymentTrigger, { from: Status[]; to: Status; events: string[] }> = {
  submit: { from: ["provisioned"], to: "pending", events: [] },
  settle: { from: ["pending"], to: "settled", events: ["payment.settled"] },
  fail: { from: ["provisioned", "pending"], to: "failed", events: ["payment.failed"] },
};

let project: ProjectCredentials;
let tenant: Tenant;

beforeEach(async () => {
  freezeClock(NOW);
  project = await createTestProject();
  tenant = { projectId: project.project_id, environment: "sandbox" };
});

describe("the table", () => {
  it("is the table the module's header describes", () => {
    expect(PAYMENT_LIFECYCLE.moves).toEqual(EXPECTED_TABLE);
  });

  it("leaves settled and failed with no move out", () => {
    for (const status of ["settled", "failed"] as const) {
      for (const trigger of Object.keys(PAYMENT_LIFECYCLE.moves) as PaymentTrigger[]) expect(canMove(PAYMENT_LIFECYCLE, status, trigger)).toBe(false);
    }
  });
});

const ROWS = (Object.keys(EXPECTED_TABLE) as PaymentTrigger[]).flatMap((trigger) =>
  PAYMENT_STATUSES.map((from) => ({ trigger, from, allowed: EXPECTED_TABLE[trigger].from.includes(from) })),
);

describe("every row, against the database", () => {
  it.each(ROWS)("$trigger from $from: allowed $allowed", async ({ trigger, from, allowed }) => {
    const account = await fundedAccount(tenant);
    const created = await db().$transaction((transaction) =>
      createPayment(transaction, { projectId: tenant.projectId, environment: "sandbox", accountId: account.id, type: "payment_link", amountPence: 5_000, reference: "row", status: "provisioned" }, NOW),
    );
    await db().payment.update({ where: { id: created.id }, data: { status: from } });
    const before = await db().event.count({ where: { projectId: project.project_id } });
    const attempt = db().$transaction(async (transaction) => {
      const payment = (await lockPayment(transaction, created.id))!;
      return transitionPayment(transaction, payment, trigger, { now: NOW, failureCode: "bank_rejected" });
    });
    if (!allowed) {
      const error = await attempt.catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("conflict");
      expect((error as ApiError).message).toContain(`A payment that is ${from} cannot be`);
      expect((await db().payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe(from);
      expect(await db().event.count({ where: { projectId: project.project_id } })).toBe(before);
      return;
    }
    const moved = await attempt;
    const to = EXPECTED_TABLE[trigger].to;
    const stored = await db().payment.findUniqueOrThrow({ where: { id: created.id } });
    expect(moved.status).toBe(to);
    expect(stored).toMatchObject({
      status: to,
      settledAt: to === "settled" ? NOW : null,
      failedAt: to === "failed" ? NOW : null,
      failureCode: to === "failed" ? "bank_rejected" : null,
      updatedAt: NOW,
    });
    const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, skip: before });
    expect(events.map((event) => event.type)).toEqual(EXPECTED_TABLE[trigger].events);
    for (const event of events) expect(event.object).toMatchObject({ id: created.id, object: "payment", status: to, failure_code: stored.failureCode });
  });

  it("needs a failure code to fail a payment", async () => {
    const account = await fundedAccount(tenant);
    const created = await db().$transaction((transaction) =>
      createPayment(transaction, { projectId: tenant.projectId, environment: "sandbox", accountId: account.id, type: "payment_link", amountPence: 5_000, reference: null, status: "provisioned" }, NOW),
    );
    await expect(db().$transaction(async (transaction) => transitionPayment(transaction, (await lockPayment(transaction, created.id))!, "fail", { now: NOW }))).rejects.toThrow("A payment fails with a failure code");
    expect((await db().payment.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("provisioned");
  });
});
