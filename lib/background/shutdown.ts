// How a stopping server process (scripts/stop-server.ts) stops its background work and gives back what it holds.
// Next loads instrumentation.ts, which starts the work, as a module graph of its own, apart from the server
// script's: the stop is left on globalThis by the one and called by the other, so it acts on the driver and the
// claims that are really running. Imports nothing, so the server script loads no domain to call it.

const STOP = Symbol.for("lending.stopBackgroundWork");

type StopBackgroundWork = () => Promise<number>;

/** Called once the driver has started: how to stop it and give back the rows its work holds. */
export function onBackgroundStop(stop: StopBackgroundWork): void {
  (globalThis as { [STOP]?: StopBackgroundWork })[STOP] = stop;
}

/** Stops the driver's sweeps and gives back the claims of work still in flight; answers how many it gave back. */
export async function stopBackgroundWork(): Promise<number> {
  const stop = (globalThis as { [STOP]?: StopBackgroundWork })[STOP];
  return stop ? stop() : 0;
}
