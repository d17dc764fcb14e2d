// A counting semaphore for work in this process: at most `size` holders at once, the rest waiting in order.

interface Waiter {
  grant: () => void;
}

export class Semaphore {
  private held = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly size: number) {}

  /** Takes a place if one is free at once. */
  tryTake(): boolean {
    if (this.held >= this.size) return false;
    this.held += 1;
    return true;
  }

  /** Takes a place whether or not one is free: for work that must not wait (see lib/pool-bulkhead.ts). */
  takeNow(): void {
    this.held += 1;
  }

  /** Waits for a place; rejects with `timeoutError()` if none frees within `timeoutMs` (no limit when absent). */
  take(timeoutMs?: number, timeoutError?: () => Error): Promise<void> {
    if (this.tryTake()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(timeoutError?.() ?? new Error(`no place free within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
      }
      this.waiting.push(waiter);
    });
  }

  /** Gives a place back: to the longest waiter, if any, once fewer than `size` are held (`takeNow` may pass it). */
  give(): void {
    this.held -= 1;
    if (this.held >= this.size) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.held += 1;
    next.grant();
  }

  /** Nobody holds a place or waits for one. */
  get idle(): boolean {
    return this.held === 0 && this.waiting.length === 0;
  }
}
