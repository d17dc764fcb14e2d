// The one way a test waits for something the platform does on its own (decisioning after a submit, a webhook
// reaching a receiver): `eventually` reads until the reading is what the test expects. Where the work can be
// driven, pass it as `drive` (decide this application, deliver what is due) so the wait is the work itself,
// not the background driver's next tick; the short pause between reads is only for work in another process.

export interface EventuallyOptions {
  /** Runs before each read: the due work the reading waits for (idempotent, as every background operation is). */
  drive?: () => Promise<unknown>;
  /** Give up after this long, failing with the last reading. */
  timeoutMs?: number;
}

const PAUSE_MS = 25;

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, options: EventuallyOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const started = performance.now();
  for (;;) {
    await options.drive?.();
    const value = await read();
    if (done(value)) return value;
    if (performance.now() - started > timeoutMs) throw new Error(`not there after ${timeoutMs} ms; last reading: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}
