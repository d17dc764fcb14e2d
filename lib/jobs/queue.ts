// What the health check reports about background work. Each kind of due work (decisioning, deliveries...)
// registers a counter of its pending rows; the local driver runs in-process, so it is reachable while the app is.

type PendingCounter = () => Promise<number>;

const pendingCounters = new Map<string, PendingCounter>();

export function registerPendingWork(name: string, count: PendingCounter): void {
  pendingCounters.set(name, count);
}

export interface QueueStatus {
  reachable: boolean;
  pending: number;
}

export async function readQueueStatus(): Promise<QueueStatus> {
  const counts = await Promise.all([...pendingCounters.values()].map((count) => count()));
  return { reachable: true, pending: counts.reduce((sum, count) => sum + count, 0) };
}
