// Signals a domain sends once the transaction of a change has committed, for the work that follows the change
// (decisioning after a submission: lib/background/start.ts listens). It imports nothing, so a domain announces what
// committed without importing the scheduler that acts on it.

/** A committed change that work waits on, named as the event it wrote. */
export type CommitSignal = "application.submitted";

/** Called with the id of the object the change moved. Must not throw: the change has committed whatever it does. */
export type CommitListener = (objectId: string) => void;

// Next may load instrumentation.ts (which listens) and the route handlers (which announce) as separate module
// graphs, each with its own copy of this module, so the listeners live on globalThis, where every copy sees them.
const LISTENERS = Symbol.for("lending-platform.commit-listeners");
type Listeners = Map<CommitSignal, Set<CommitListener>>;

function listeners(): Listeners {
  const holder = globalThis as { [LISTENERS]?: Listeners };
  return (holder[LISTENERS] ??= new Map());
}

/** Listens for `signal`; a listener already listening is not added twice. */
export function onCommitted(signal: CommitSignal, listener: CommitListener): void {
  const forSignal = listeners().get(signal) ?? new Set<CommitListener>();
  forSignal.add(listener);
  listeners().set(signal, forSignal);
}

/** Tells the listeners of `signal` that the change to `objectId` has committed (call it from `whenCommitted`). */
export function announceCommitted(signal: CommitSignal, objectId: string): void {
  for (const listener of listeners().get(signal) ?? []) listener(objectId);
}
