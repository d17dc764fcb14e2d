// The time of the request being answered, taken once when it arrived and moved by its tenant's test clock
// (lib/tenant-clock.ts) once the caller is known: the route builder (lib/http) sets it, and validations that
// reckon with today (an age from a date of birth) read it, so a request never checks one rule against real time
// and another against its tenant's. Outside a request (the CLI, background work) it is the clock's time.
import { AsyncLocalStorage } from "node:async_hooks";
import { clock } from "../clock";

const requestTimes = new AsyncLocalStorage<Date>();

/** Runs `work` (and everything it starts) at the request time `now`. */
export function atRequestTime<T>(now: Date, work: () => T): T {
  return requestTimes.run(now, work);
}

export function requestTime(): Date {
  return requestTimes.getStore() ?? clock.now();
}
