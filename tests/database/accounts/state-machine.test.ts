// The account lifecycle's one table and one mover (lib/accounts/state-machine.ts, transition.ts), against the real database:
// every allowed move writes its status and its events (account.updated, and account.closed on settling and
// closing) in the caller's transaction; every refused move is 409 `conflict` and writes nothing. And the
// ledger refuses UPDATE and DELETE in the database itself.
import { beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_STATUSES, type AccountStatus } from "@/lib/accounts/schemas";
import { ACCOUNT_LIFECYCLE, type AccountTrigger } from "@/lib/accounts/state-machine";
import { lockAccount, transitionAccount } from "@/lib/accounts/transition";
import { canMove, IllegalTransitionError } from "@/lib/lifecycle";
import { freezeClock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import type { Tenant } from "@/lib/tenant";
import { createTestProject } from "../../helpers/partner";
import { fundedAccount } from "./helpers";

const NOW = new Date("2027-06-10T09:00:00.000Z");

const EXPECTED_TABLE: Record<AccountTrigger, { from: AccountStatus[]; to: AccountStatus; events: string[] }> = {
  fall_into_arrears: { from: ["performing"], to: "in_arrears", events: ["account.updated"] },
  clear_arrears: { from: ["in_arrears"], to: "performing", events: ["account.updated"] },
  agree_forbearance: { from: ["performing", "in_arrears"], to: "forborne", events: ["account.updated"] },
  end_forbearance: { from: ["forborne"], to: "performing", events: ["account.updated"] },
  settle: { from: ["performing", "in_arrears", "forborne"], to: "settled", events: ["account.updated", "account.closed"] },
  write_off: { from: ["performing", "in_arrears", "forborne"], to: "closed", events: ["account.updated", "account.closed"] },
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
    expect(ACCOUNT_LIFECYCLE.moves).toEqual(EXPECTED_TABLE);
  });

  it("leaves settled and closed with no move out", () => {
    for (const status of ["settled", "closed"] as const) {
      for (const trigger of Object.keys(ACCOUNT_LIFECYCLE.moves) as AccountTrigger[]) expect(canMove(ACCOUNT_LIFECYCLE, status, trigger)).toBe(false);
    }
  });
});

const ROWS = (Object.keys(EXPECTED_TABLE) as AccountTrigger[]).flatMap((trigger) =>
  ACCOUNT_STATUSES.map((from) => ({ trigger, from, allowed: EXPECTED_TABLE[trigger].from.includes(from) })),
);

describe("every row, against the database", () => {
  it.each(ROWS)("$trigger from $from: allowed $allowed", async ({ trigger, from, allowed }) => {
    const opened = await fundedAccount(tenant);
    await db().account.update({ where: { id: opened.id }, data: { status: from } });
    const before = await db().event.count({ where: { projectId: project.project_id } });
    const attempt = db().$transaction(async (transaction) => {
      const account = (await lockAccount(transaction, opened.id))!;
      return transitionAccount(transaction, account, trigger, { now: NOW, render: (moved) => ({ id: moved.id, object: "account", status: moved.status }) });
    });
    if (!allowed) {
      const error = await attempt.catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(IllegalTransitionError);
      expect((error as IllegalTransitionError).code).toBe("conflict");
      expect((await db().account.findUniqueOrThrow({ where: { id: opened.id } })).status).toBe(from);
      expect(await db().event.count({ where: { projectId: project.project_id } })).toBe(before);
      return;
    }
    const moved = await attempt;
    expect(moved.status).toBe(EXPECTED_TABLE[trigger].to);
    expect((await db().account.findUniqueOrThrow({ where: { id: opened.id } })).status).toBe(EXPECTED_TABLE[trigger].to);
    const events = await db().event.findMany({ where: { projectId: project.project_id }, orderBy: { id: "asc" }, skip: before });
    expect(events.map((event) => event.type)).toEqual(EXPECTED_TABLE[trigger].events);
    for (const event of events) expect(event.object).toEqual({ id: opened.id, object: "account", status: EXPECTED_TABLE[trigger].to });
  });
});

describe("the ledger", () => {
  it("refuses UPDATE and DELETE in the database, whoever asks", async () => {
    const account = await fundedAccount(tenant);
    const [row] = await db().ledgerTransaction.findMany({ where: { accountId: account.id } });
    expect(row).toMatchObject({ type: "drawdown", amountPence: -1_000_000 });
    await expect(db().ledgerTransaction.update({ where: { id: row!.id }, data: { amountPence: 1 } })).rejects.toThrow(/append-only/);
    await expect(db().$executeRaw`UPDATE ledger_transactions SET posted_at = now() WHERE id = ${row!.id}`).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(db().$executeRaw`DELETE FROM ledger_transactions WHERE id = ${row!.id}`).rejects.toThrow(/append-only: DELETE refused/);
    await expect(db().ledgerTransaction.delete({ where: { id: row!.id } })).rejects.toThrow(/append-only/);
    expect(await db().ledgerTransaction.findUniqueOrThrow({ where: { id: row!.id } })).toEqual(row);
  });
});
