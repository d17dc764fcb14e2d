// The one shape of every lifecycle: a table of allowed moves (trigger → from, to, the events it writes, in order) in its
// domain's state-machine.ts, and one `transition()` that checks a move and writes it with its events in the caller's
// transaction. A move the table does not allow is one 409 `conflict`: "A payment that is settled cannot be settled."
import { ApiError } from "./errors";
import { recordEvents, type EventType } from "./events/events";
import type { Prisma } from "./generated/prisma/client";
import type { TenantEnvironment } from "./tenant";

export type Move<S extends string> = { from: readonly S[]; to: S; events: readonly EventType[] };

export interface Lifecycle<S extends string, T extends string> {
  /** The object as the 409 names it: "payment", "webhook endpoint". */
  object: string;
  moves: Readonly<Record<T, Move<S>>>;
  /** Each move as the 409 ends: "… cannot be <said>." */
  said: Readonly<Record<T, string>>;
}

export const canMove = <S extends string, T extends string>(lifecycle: Lifecycle<S, T>, status: S, trigger: T): boolean => lifecycle.moves[trigger].from.includes(status);

export class IllegalTransitionError extends ApiError {
  constructor(readonly object: string, readonly from: string, readonly trigger: string, said: string) {
    super("conflict", { message: `${/^[aeiou]/i.test(object) ? "An" : "A"} ${object} that is ${from} cannot be ${said}.` });
  }
}

/** The move `trigger` from `status`, or `IllegalTransitionError`; `shownAs` names the status where the table's states are finer. */
export function assertMove<S extends string, T extends string>(lifecycle: Lifecycle<S, T>, status: S, trigger: T, shownAs: string = status): Move<S> {
  if (!canMove(lifecycle, status, trigger)) throw new IllegalTransitionError(lifecycle.object, shownAs, trigger, lifecycle.said[trigger]);
  return lifecycle.moves[trigger];
}

/** The move to `to` from `status`, for writers that set a status rather than name a move (an allocation's instalments). */
export function assertMoveTo<S extends string, T extends string>(lifecycle: Lifecycle<S, T>, status: S, to: S): Move<S> {
  const triggers = (Object.keys(lifecycle.moves) as T[]).filter((trigger) => lifecycle.moves[trigger].to === to);
  const trigger = triggers.find((candidate) => canMove(lifecycle, status, candidate)) ?? triggers[0];
  if (trigger === undefined) throw new IllegalTransitionError(lifecycle.object, status, to, to);
  return assertMove(lifecycle, status, trigger);
}

export interface TransitionOptions<S extends string, Row> {
  /** The row's status as the table knows it, read under the row's lock where movers can race. */
  status: S;
  shownAs?: string;
  /** Writes the new status and whatever changes with it; returns the moved row. */
  write: (to: S) => Promise<Row>;
  /** `data.object` of each event the move writes. */
  object: (moved: NoInfer<Row>, type: EventType) => object | Promise<object>;
  now: Date;
}

/** Checks the move, then writes it and its events in `transaction`; an illegal move writes nothing. */
export async function transition<S extends string, T extends string, Row extends { projectId: string; environment: TenantEnvironment }>(
  transaction: Prisma.TransactionClient,
  lifecycle: Lifecycle<S, T>,
  trigger: T,
  options: TransitionOptions<S, Row>,
): Promise<Row> {
  const move = assertMove(lifecycle, options.status, trigger, options.shownAs);
  const moved = await options.write(move.to);
  const events = [];
  for (const type of move.events) events.push({ projectId: moved.projectId, environment: moved.environment, type, object: await options.object(moved, type), createdAt: options.now });
  await recordEvents(transaction, events);
  return moved;
}
