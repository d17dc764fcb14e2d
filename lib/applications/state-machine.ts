// The application lifecycle (spec 3.1): the one table of allowed moves and the one function that makes them.
// Every status change in the platform goes through `transitionApplication`, which locks the row, checks the
// move against the table, writes the change and the move's events in one transaction; every other change of a
// created application's answers goes through `amendApplication`.
//
// Moves the spec leaves open, as chosen here:
//   - Decisioning: `submitted` → `in_review` → `approved` | `declined`, or stays `in_review` when referred.
//   - A refresh or a resolved referral re-decides: `in_review`, `approved` and `declined` may each move to any
//     of the three (a decision can change while no offer has been taken up).
//   - Withdraw is allowed from every state before `funded` except `expired`: an expired application is already
//     closed (409 `conflict`), and a declined one can still be withdrawn, which stops any further refresh.
//   - `approved` → `funded` when the borrower accepts the offer (`offer.accepted`, then `application.funded`);
//     lib/accounts/funding.ts makes this move and opens the servicing account in the same transaction.
// An application starts `created`, with its `application.created` event: lib/applications/create.ts opens it.
// While it is `created` the applicant's answers may change (`amendApplication`), never after.
import type { Application, Prisma } from "../generated/prisma/client";
import { clock } from "../clock";
import { ApiError } from "../errors";
import { recordEvents, type EventType } from "../events/events";
import { lockRow, type LockOptions } from "../row-lock";
import type { ApplicationStatus } from "./schemas";
import { serializeApplication } from "./serialize";

export interface TransitionRule {
  from: readonly ApplicationStatus[];
  to: ApplicationStatus;
  /** Events the move writes, in order. `application.*` events carry the application; others are supplied. */
  events: readonly EventType[];
}

const DECIDABLE: readonly ApplicationStatus[] = ["in_review", "approved", "declined"];

/** Where an application ends without funding; a funded one ends when its account closes (lib/accounts/state-machine.ts). */
const ENDED_UNFUNDED: readonly ApplicationStatus[] = ["declined", "expired", "withdrawn"];

export const APPLICATION_TRANSITIONS = {
  submit: { from: ["created"], to: "submitted", events: ["application.submitted"] },
  expire: { from: ["created"], to: "expired", events: ["application.expired"] },
  withdraw: { from: ["created", "submitted", "in_review", "approved", "declined"], to: "withdrawn", events: ["application.withdrawn"] },
  start_review: { from: ["submitted"], to: "in_review", events: [] },
  approve: { from: DECIDABLE, to: "approved", events: ["decision.completed"] },
  decline: { from: DECIDABLE, to: "declined", events: ["decision.completed"] },
  refer: { from: DECIDABLE, to: "in_review", events: ["decision.completed", "decision.referred"] },
  fund: { from: ["approved"], to: "funded", events: ["offer.accepted", "application.funded"] },
} as const satisfies Record<string, TransitionRule>;

export type ApplicationTrigger = keyof typeof APPLICATION_TRANSITIONS;

export function canTransition(status: ApplicationStatus, trigger: ApplicationTrigger): boolean {
  return (APPLICATION_TRANSITIONS[trigger].from as readonly ApplicationStatus[]).includes(status);
}

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

export class IllegalTransitionError extends ApiError {
  readonly from: ApplicationStatus;
  readonly trigger: ApplicationTrigger;

  constructor(from: ApplicationStatus, trigger: ApplicationTrigger) {
    super("conflict", { message: `An application that is ${from} cannot be ${PROSE[trigger]}.` });
    this.from = from;
    this.trigger = trigger;
  }
}

/**
 * Reads an application and locks its row until the transaction ends; concurrent movers queue behind it, or
 * with `skipLocked` a held row reads as null (background work passes over what another worker holds).
 */
export async function lockApplication(
  transaction: Prisma.TransactionClient,
  where: { id: string; projectId?: string },
  options: LockOptions = {},
): Promise<Application | null> {
  if (!(await lockRow(transaction, "applications", where.id, options))) return null;
  return transaction.application.findFirst({ where: { id: where.id, ...(where.projectId ? { projectId: where.projectId } : {}) } });
}

/** The applicant's answers (amount, term, purpose, declared turnover) change only while it is `created`: once submitted, decisioning reads them. */
const AMENDABLE: readonly ApplicationStatus[] = ["created"];

/**
 * Changes a locked application's answers (see `lockApplication`) without moving it, inside `transaction`:
 * 409 `conflict` unless it is still being filled in, so a submit that took the row first keeps what it read.
 */
export async function amendApplication(
  transaction: Prisma.TransactionClient,
  application: Application,
  changes: Pick<Prisma.ApplicationUpdateInput, "amountPence" | "termMonths" | "purpose" | "declaredAnnualTurnoverPence">,
  options: { now: Date },
): Promise<Application> {
  if (!AMENDABLE.includes(application.status)) {
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

/**
 * Moves a locked application (see `lockApplication`) by `trigger`, inside `transaction`. Throws
 * `IllegalTransitionError` (409 `conflict`) when the table does not allow the move from its current status.
 */
export async function transitionApplication(
  transaction: Prisma.TransactionClient,
  application: Application,
  trigger: ApplicationTrigger,
  options: TransitionOptions,
): Promise<Application> {
  const rule: TransitionRule = APPLICATION_TRANSITIONS[trigger];
  if (!canTransition(application.status, trigger)) throw new IllegalTransitionError(application.status, trigger);
  // Checked before any write, so a caller's mistake can never commit a change without its event.
  const unsupplied = rule.events.filter((type) => !type.startsWith("application.") && !options.eventObjects?.[type]);
  if (unsupplied.length > 0) throw new Error(`The ${trigger} move writes ${unsupplied.join(", ")} but no object was supplied for it`);
  const updated = await transaction.application.update({
    where: { id: application.id },
    // Real time, not the tenant's: the retention of its personal data runs from it (lib/applications/personal-data.ts).
    data: { ...options.changes, status: rule.to, updatedAt: options.now, endedAt: ENDED_UNFUNDED.includes(rule.to) ? clock.now() : null },
  });
  const applicationObject = serializeApplication(updated);
  await recordEvents(
    transaction,
    rule.events.map((type) => {
      const object = type.startsWith("application.") ? applicationObject : options.eventObjects![type]!;
      return { projectId: updated.projectId, environment: updated.environment, type, object, createdAt: options.now };
    }),
  );
  return updated;
}
