// CPU placement for the bench (Linux, through util-linux's `taskset`): the server under test gets a core of its
// own for its event loop, and everything else that runs during a measurement (the load generator, the
// database's backends, the server's helper threads) shares the remaining cores. docs/performance.md says why.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";

export interface CorePlan {
  /** The core of the server's event loop (and of the bare baseline's). */
  serverCore: string;
  /** Every other core, as a taskset list. */
  otherCores: string;
}

/** The plan for this machine, or null where there is nothing to separate (one core) or no taskset. */
export function planCores(): CorePlan | null {
  const count = os.cpus().length;
  if (count < 2) return null;
  try {
    execFileSync("taskset", ["-p", String(process.pid)], { stdio: "ignore" });
  } catch {
    return null;
  }
  return { serverCore: "0", otherCores: count === 2 ? "1" : `1-${count - 1}` };
}

/** Restricts one thread (a pid is also its main thread's id) to `cores`; false when the system refused. */
function pinThread(threadId: number | string, cores: string): boolean {
  try {
    execFileSync("taskset", ["-p", "-c", cores, String(threadId)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Every thread of `pid` to `cores`. */
export function pinProcess(pid: number, cores: string): boolean {
  return threadsOf(pid).every((thread) => pinThread(thread, cores));
}

/**
 * The main thread of `pid` to `mainCore`, its other threads (V8's GC helpers, libuv's pool) to `otherCores`.
 * Threads the main thread starts later inherit its core, so call this again before each measurement.
 */
export function pinMainThread(pid: number, plan: CorePlan): boolean {
  return threadsOf(pid).every((thread) => pinThread(thread, thread === String(pid) ? plan.serverCore : plan.otherCores));
}

/** The ids of a process's threads (Linux /proc); empty once it has ended. */
function threadsOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

/** Each of `pids` (the database's backends) to `cores`; returns how many would not move (another user's). */
export function pinProcesses(pids: readonly number[], cores: string): number {
  return pids.filter((pid) => !pinProcess(pid, cores)).length;
}
