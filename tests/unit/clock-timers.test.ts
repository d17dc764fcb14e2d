// The clock's timers: what the event stream waits on, run by real time in the platform and advanced by hand in tests.
import { afterEach, expect, it } from "vitest";
import { manualTimers, restoreTimers, timers } from "@/lib/clock";

afterEach(() => restoreTimers());

it("fires manual timers only when advanced past, in the order they fall due, repeating ones at each interval", () => {
  const control = manualTimers();
  const fired: string[] = [];
  timers.after(250, () => fired.push("once at 250"));
  timers.every(100, () => fired.push("every 100"));

  control.advance(99);
  expect(fired).toEqual([]);
  control.advance(201);
  expect(fired).toEqual(["every 100", "every 100", "once at 250", "every 100"]);
});

it("fires nothing once cancelled", () => {
  const control = manualTimers();
  const fired: string[] = [];
  const cancelOnce = timers.after(10, () => fired.push("once"));
  const cancelRepeating = timers.every(10, () => fired.push("repeating"));
  control.advance(10);
  cancelRepeating();
  cancelOnce();
  control.advance(100);
  expect(fired).toEqual(["once", "repeating"]);
});

it("runs on real time once restored", async () => {
  manualTimers();
  restoreTimers();
  await new Promise<void>((resolve) => timers.after(1, resolve));
});
