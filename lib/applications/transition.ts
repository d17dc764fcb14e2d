// How an application row changes (its table: lib/applications/state-machine.ts): read under its row lock, moved by
// the table with its events in the caller's transaction, or, while `created`, amended without a move. An
// application starts `created` (lib/applications/create.ts); lib/accounts/funding.ts funds it.
import type { Application, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { ApiError } from "../errors";
import type { EventType } from "../events/events";
import { assertMove, transition } from "../lifecycle";
import { lockForMove, type LockOptions } from "../row-lock";
import type { ApplicationStatus } from "./schemas";
import { serializeApplication } from "./serialize";
import { moveIntroduction } from "../revenue-share/introductions";
import type { IntroductionTrigger } from "../revenue-share/state-machine";
import { APPLICATION_LIFECYCLE, type ApplicationTrigger } from "./state-machine";

/** Where an application ends without funding; a funded one ends when its account closes (lib/accounts/transition.ts). */
const ENDED_UNFUNDED: readonly ApplicationStatus[] = ["declined", "expired", "withdrawn"];

/** Reads an application under its row lock (with `skipLocked`, a row another worker holds reads as null). */
export const lockApplication = (transaction: Prisma.TransactionClient, id: string, options?: LockOptions) => lockForMove(transaction, "applications", id, options);

/**
 * Changes a locked application's answers without moving it: only while it is `created` (decisioning reads them
 * once submitted), else 409 `conflict`, so a submit that took the row first keeps what it read.
 */
export async function amendApplication(
  transaction: Prisma.TransactionClient,
  application: Application,
  changes: Pick<Prisma.ApplicationUpdateInput, "amountPence" | "termMonths" | "purpose" | "declaredAnnualTurnoverPence">,
  options: { now: Date },
): Promise<Application> {
  if (application.status !== "created") {
    throw new ApiError("conflict", { message: `Application ${application.id} is ${application.status}: its answers change only while it is created.` });
  }
  return transaction.application.update({ where: { id: application.id }, data: { ...changes, updatedAt: options.now } });
}

export interface TransitionOptions {
  /** Other columns the move sets (timestamps, reasons). */
  changes?: Omit<Prisma.ApplicationUpdateInput, "status" | "updatedAt">;
  /** `data.object` of the move's non-application events, by type (e.g. the decision for `decision.completed`). */
  eventObjects?: Partial<Record<EventType, object>>;
  now: Date;
}

/** How an application's move moves its introduction (beta, lib/revenue-share); funding moves it with the account's principal. */
const INTRODUCTION_MOVES: Partial<Record<ApplicationTrigger, IntroductionTrigger>> = {
  approve: "decide",
  refer: "decide",
  decline: "decline",
  expire: "decline",
  withdraw: "decline",
};

/** Moves a locked application by `trigger` in `transaction`; an illegal move is 409 `conflict`. */
export async function transitionApplication(transaction: Prisma.TransactionClient, application: Application, trigger: ApplicationTrigger, options: TransitionOptions): Promise<Application> {
  assertMove(APPLICATION_LIFECYCLE, application.status, trigger);
  // Checked before any write, so a caller's mistake can never commit a change without its event.
  const unsupplied = APPLICATION_LIFECYCLE.moves[trigger].events.filter((type) => !type.startsWith("application.") && !options.eventObjects?.[type]);
  if (unsupplied.length > 0) throw new Error(`The ${trigger} move writes ${unsupplied.join(", ")} but no object was supplied for it`);
  const moved = await transition(transaction, APPLICATION_LIFECYCLE, trigger, {
    status: application.status,
    now: options.now,
    // `endedAt` in real time, not the tenant's: the retention of its personal data runs from it (lib/applications/personal-data.ts).
    write: (to) =>
      transaction.application.update({ where: { id: application.id }, data: { ...options.changes, status: to, updatedAt: options.now, endedAt: ENDED_UNFUNDED.includes(to) ? clock.now() : null } }),
    object: (moved, type) => (type.startsWith("application.") ? serializeApplication(moved) : options.eventObjects![type]!),
  });
  const introductionTrigger = INTRODUCTION_MOVES[trigger];
  if (moved.subAccountId !== null && introductionTrigger) await moveIntroduction(transaction, moved.id, introductionTrigger, { now: options.now });
  return moved;
}
