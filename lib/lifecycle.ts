// The one shape of every lifecycle: a table of allowed moves (from → to, with the events each writes) and one
// `transition()` that checks a move and writes it with its events in the caller's transaction. Each lifecycle's
// module holds its table and says how its row is locked and changed. Every move a table does not allow is the
// same 409 `conflict`, naming the object, its status and the move: "A payment that is settled cannot be settled."
import { ApiError } from "./errors";
import { recordEvents, type EventType } from "./events/events";
import type { Environment, Prisma } from "./generated/prisma/client";

export interface Move<S extends string> {
  from: readonly S[];
  to: S;
  /** Events the move writes, in order. */
  events: readonly EventType[];
}

export interface Lifecycle<S extends string, T extends string> {
  /** The object as an illegal move's message names it: "payment", "webhook endpoint". */
  object: string;
  moves: Readonly<Record<T, Move<S>>>;
  /** Each move as the message ends: "… cannot be <said>." */
  said: Readonly<Record<T, string>>;
}

export function canMove<S extends string, T extends string>(lifecycle: Lifecycle<S, T>, status: S, trigger: T): boolean {
  return lifecycle.moves[trigger].from.includes(status);
}

/** An illegal move: 409 `conflict`, the same words for every lifecycle. */
export class IllegalTransitionError extends ApiError {
  constructor(
    readonly object: string,
    readonly from: string,
    readonly trigger: string,
    said: string,
  ) {
    super("conflict", { message: `${/^[aeiou]/i.test(object) ? "An" : "A"} ${object} that is ${from} cannot be ${said}.` });
  }
}

/** The move `trigger` from `status`, or `IllegalTransitionError` when the table does not allow it. */
export function assertMove<S extends string, T extends string>(lifecycle: Lifecycle<S, T>, status: S, trigger: T, shownAs: string = status): Move<S> {
  if (!canMove(lifecycle, status, trigger)) throw new IllegalTransitionError(lifecycle.object, shownAs, trigger, lifecycle.said[trigger]);
  return lifecycle.moves[trigger];
}

export interface TransitionOptions<S extends string, Row extends { projectId: string; environment: Environment }> {
  /** The row's status as the table knows it, read under the row's lock where concurrent movers can race. */
  status: S;
  /** How the status is shown in the 409, when the table's states are finer than the object's status. */
  shownAs?: string;
  /** Writes the move: the new status and whatever else changes with it; returns the moved row. */
  write: (to: S) => Promise<Row>;
  /** `data.object` of each event the move writes; asked once per event. */
  object: (moved: NoInfer<Row>, type: EventType) => object | Promise<object>;
  now: Date;
}

/** Checks the move, writes it and its events inside `transaction`. Nothing is written when the move is illegal. */
export async function transition<S extends string, T extends string, Row extends { projectId: string; environment: Environment }>(
  transaction: Prisma.TransactionClient,
  lifecycle: Lifecycle<S, T>,
  trigger: T,
  options: TransitionOptions<S, Row>,
): Promise<Row> {
  const move = assertMove(lifecycle, options.status, trigger, options.shownAs);
  const moved = await options.write(move.to);
  const events = [];
  for (const type of move.events) {
    events.push({ projectId: moved.projectId, environment: moved.environment, type, object: await options.object(moved, type), createdAt: options.now });
  }
  await recordEvents(transaction, events);
  return moved;
}
