// How `npm run dev` and `npm start` stop on Ctrl-C: the server closes, an embedded database this process started
// stops (with the app's own output dropped meanwhile), one line says so, and the exit code is 0. In production the
// requests in flight finish first (within the grace period) and the background work's claims are given back.
import { describe, expect, it } from "vitest";
import { stopOnSignal, type StopTargets } from "@/scripts/stop-server";

/** Stop targets that record, in order, what was done to them. */
function recordingTargets(options: { embedded: boolean; stopFails?: boolean; graceMs?: number }) {
  const steps: string[] = [];
  let finishStopping: () => void = () => undefined;
  let lastConnectionClosed: () => void = () => undefined;
  const targets: StopTargets = {
    server: {
      close: (callback) => {
        steps.push("close server");
        lastConnectionClosed = () => callback?.();
      },
      closeAllConnections: () => steps.push("close connections"),
    },
    graceMs: options.graceMs ?? 0,
    embedded: options.embedded
      ? {
          stop: () => {
            steps.push("stop database");
            return new Promise<void>((resolve, reject) => (finishStopping = options.stopFails ? () => reject(new Error("postgres hung up")) : resolve));
          },
        }
      : null,
    silence: () => {
      steps.push("silence the app");
      return (line) => steps.push(`print after silence: ${line}`);
    },
    print: (line) => steps.push(`print: ${line}`),
    exit: (code) => void steps.push(`exit ${code}`),
  };
  return { steps, targets, finishStopping: () => finishStopping(), lastConnectionClosed: () => lastConnectionClosed() };
}

describe("stopping the server", () => {
  it("silences the app, closes the server, waits for the embedded database, then says Stopped. and exits 0", async () => {
    const { steps, targets, finishStopping } = recordingTargets({ embedded: true });
    const stop = stopOnSignal(targets);
    const stopped = stop();
    expect(steps).toEqual(["silence the app", "close server", "close connections", "stop database"]);
    finishStopping();
    await stopped;
    expect(steps.slice(4)).toEqual(["print after silence: Stopped.", "exit 0"]);
  });

  it("does it once when the signal comes twice (from the terminal and forwarded by npm)", async () => {
    const { steps, targets, finishStopping } = recordingTargets({ embedded: true });
    const stop = stopOnSignal(targets);
    const first = stop();
    await stop();
    finishStopping();
    await first;
    expect(steps.filter((step) => step === "stop database" || step.startsWith("exit"))).toEqual(["stop database", "exit 0"]);
  });

  it("keeps the app's output when the database is not one it started", async () => {
    const { steps, targets } = recordingTargets({ embedded: false });
    await stopOnSignal(targets)();
    expect(steps).toEqual(["close server", "close connections", "print: Stopped.", "exit 0"]);
  });

  it("writes the usage counts after closing the server and before the database stops, and stops anyway when that fails", async () => {
    for (const fails of [false, true]) {
      const { steps, targets, finishStopping } = recordingTargets({ embedded: true });
      targets.flush = async () => {
        steps.push("flush counts");
        if (fails) throw new Error("database gone");
      };
      const stopped = stopOnSignal(targets)();
      while (!steps.includes("stop database")) await new Promise((resolve) => setImmediate(resolve));
      finishStopping();
      await stopped;
      expect(steps).toEqual([
        "silence the app",
        "close server",
        "close connections",
        "flush counts",
        ...(fails ? ["print after silence: The usage counts of the last seconds were not written: database gone"] : []),
        "stop database",
        "print after silence: Stopped.",
        "exit 0",
      ]);
    }
  });

  it("lets the requests in flight finish, then gives back the background work's claims before writing the counts", async () => {
    const { steps, targets, lastConnectionClosed } = recordingTargets({ embedded: false, graceMs: 60_000 });
    targets.release = async () => {
      steps.push("release claims");
      return 2;
    };
    targets.flush = async () => steps.push("flush counts");
    const stopped = stopOnSignal(targets)();
    await new Promise((resolve) => setImmediate(resolve));
    // Still draining: nothing is cut off while a request is under way.
    expect(steps).toEqual(["close server"]);
    lastConnectionClosed();
    await stopped;
    expect(steps).toEqual(["close server", "close connections", "release claims", "flush counts", "print: Stopped.", "exit 0"]);
  });

  it("closes what is still open once the grace period is over, and stops anyway when giving back the claims fails", async () => {
    const { steps, targets } = recordingTargets({ embedded: false, graceMs: 1 });
    targets.release = async () => {
      throw new Error("database gone");
    };
    await stopOnSignal(targets)();
    expect(steps).toEqual([
      "close server",
      "close connections",
      "print: The background work's claims were not given back (they lapse on their own): database gone",
      "print: Stopped.",
      "exit 0",
    ]);
  });

  it("says so and exits 1 when the embedded database does not stop cleanly", async () => {
    const { steps, targets, finishStopping } = recordingTargets({ embedded: true, stopFails: true });
    const stopped = stopOnSignal(targets)();
    finishStopping();
    await stopped;
    expect(steps.slice(-2)).toEqual(["print after silence: Stopped; the embedded database did not stop cleanly: postgres hung up", "exit 1"]);
  });
});
