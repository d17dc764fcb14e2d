// The one clock. Domain code asks it for the time so tests can freeze and advance it.

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
