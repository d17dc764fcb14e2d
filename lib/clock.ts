// The one clock. Domain code asks it for the time, and for timers, so tests can freeze and advance both.

export interface Clock {
  now(): Date;
}

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

export const clock: Clock = {
  now: () => current.now(),
};

export const DAY_MS = 86_400_000;

/** The one clock moved `offsetMs` ahead: a sandbox project's test clock (lib/tenant-clock.ts). */
export function offsetClock(offsetMs: number): Clock {
  if (offsetMs === 0) return clock;
  return { now: () => new Date(current.now().getTime() + offsetMs) };
}

/** Test control: pins the clock at `start` until advanced or restored. */
export function freezeClock(start: Date | string = new Date()): { advance(ms: number): Date; set(at: Date | string): void } {
  let instant = new Date(start).getTime();
  current = { now: () => new Date(instant) };
  return {
    advance(ms) {
      instant += ms;
      return new Date(instant);
    },
    set(at) {
      instant = new Date(at).getTime();
    },
  };
}

/**
 * Test control: the clock moves on `stepMs` every time it is read, from `start`, so time passes within a request
 * as it does for real, and two reads of it never agree.
 */
export function tickingClock(start: Date | string, stepMs = 1): void {
  let instant = new Date(start).getTime() - stepMs;
  current = {
    now: () => {
      instant += stepMs;
      return new Date(instant);
    },
  };
}

export function restoreClock(): void {
  current = systemClock;
}

/**
 * Whether something `ageMs` old is still within `ttlMs`, for caches timed by this clock. A negative age (the
 * clock set back past the moment it was read, as tests do) is not fresh: else the entry would live until the
 * clock caught up with it.
 */
export function isFresh(ageMs: number, ttlMs: number): boolean {
  return ageMs >= 0 && ageMs < ttlMs;
}

/**
 * Real time elapsed, in milliseconds from an arbitrary start (monotonic): for measuring what is happening now, such
 * as an outage of the rate-limit store, whatever instant tests have frozen the platform clock at.
 */
export type ElapsedTime = () => number;

export const realElapsedTime: ElapsedTime = () => performance.now();

/** Waits on time: each function returned cancels what it scheduled. */
export interface Timers {
  after(ms: number, callback: () => void): () => void;
  /** `unref`: the timer alone does not keep the process running (Node's unref). */
  every(ms: number, callback: () => void, options?: { unref?: boolean }): () => void;
}

const systemTimers: Timers = {
  after(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  every(ms, callback, options) {
    const timer = setInterval(callback, ms);
    if (options?.unref) timer.unref();
    return () => clearInterval(timer);
  },
};
let currentTimers: Timers = systemTimers;

export const timers: Timers = {
  after: (ms, callback) => currentTimers.after(ms, callback),
  every: (ms, callback, options) => currentTimers.every(ms, callback, options),
};

interface ManualTimer {
  dueAt: number;
  /** Null for a timer that fires once. */
  repeatMs: number | null;
  callback: () => void;
}

/**
 * Test control: timers scheduled from now on fire only when advanced past, synchronously and in the order they
 * fall due, until restored. Timers already scheduled keep running on real time.
 */
export function manualTimers(): { advance(ms: number): void } {
  let now = 0;
  let nextId = 0;
  const scheduled = new Map<number, ManualTimer>();
  const schedule = (ms: number, callback: () => void, repeat: boolean) => {
    const id = nextId++;
    scheduled.set(id, { dueAt: now + ms, repeatMs: repeat ? Math.max(1, ms) : null, callback });
    return () => void scheduled.delete(id);
  };
  currentTimers = { after: (ms, callback) => schedule(ms, callback, false), every: (ms, callback) => schedule(ms, callback, true) };
  return {
    advance(ms) {
      const until = now + ms;
      for (;;) {
        let next: [number, ManualTimer] | undefined;
        for (const entry of scheduled) if (entry[1].dueAt <= until && (!next || entry[1].dueAt < next[1].dueAt)) next = entry;
        if (!next) break;
        const [id, timer] = next;
        now = timer.dueAt;
        if (timer.repeatMs === null) scheduled.delete(id);
        else timer.dueAt += timer.repeatMs;
        timer.callback();
      }
      now = until;
    },
  };
}

export function restoreTimers(): void {
  currentTimers = systemTimers;
}
