// Commit signals (lib/commit-signals.ts): how a domain tells the work after a change that the change committed,
// without importing it. Each test file runs in a process of its own, so the listeners here are this file's.
import { describe, expect, it, vi } from "vitest";

describe("commit signals", () => {
  it("calls each listener of the signal with the id of the object that moved", async () => {
    const { announceCommitted, onCommitted } = await import("@/lib/commit-signals");
    const heard = vi.fn();
    onCommitted("application.submitted", heard);

    announceCommitted("application.submitted", "app_01");

    expect(heard.mock.calls).toEqual([["app_01"]]);
  });

  it("adds a listener once however often it listens, as every app server a test starts listens again", async () => {
    const { announceCommitted, onCommitted } = await import("@/lib/commit-signals");
    const heard = vi.fn();
    onCommitted("application.submitted", heard);
    onCommitted("application.submitted", heard);

    announceCommitted("application.submitted", "app_02");

    expect(heard).toHaveBeenCalledTimes(1);
  });

  it("reaches listeners registered by another copy of the module, as Next loads instrumentation and routes apart", async () => {
    const listening = await import("@/lib/commit-signals");
    const heard = vi.fn();
    listening.onCommitted("application.submitted", heard);
    vi.resetModules();
    const announcing = await import("@/lib/commit-signals");

    expect(announcing).not.toBe(listening);
    announcing.announceCommitted("application.submitted", "app_03");

    expect(heard.mock.calls).toEqual([["app_03"]]);
  });
});
