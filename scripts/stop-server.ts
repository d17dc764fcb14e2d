// How `npm run dev` and `npm start` stop on Ctrl-C (SIGINT) or SIGTERM: one line, "Stopped.", and exit 0.
//
// Ctrl-C reaches every process in the terminal's group at once, the embedded PostgreSQL included, so that database
// is already shutting down while the app's background work and change feed still read it, whatever order we stop
// things in. What the app says about the lost connection in those moments (warnings with stack traces) is noise,
// so while an embedded cluster stops with us the app's output is dropped. A database of its own (DATABASE_URL)
// stays up, and the app's last words are kept.
//
// A production process behind a load balancer stops gracefully (docs/deploy.md): it stops accepting connections at
// once, lets the requests in flight finish (up to a grace period), then stops its background work and gives back
// the webhook attempts and emails it holds, so another process takes them at once instead of when their claims lapse.

export interface StopTargets {
  server: { close(callback?: () => void): unknown; closeAllConnections(): void };
  /** How long requests in flight may take to finish once the server stops accepting; 0 closes them at once. */
  graceMs: number;
  /** The embedded cluster this process started, or null. */
  embedded: { stop(): Promise<void> } | null;
  /** Drops the app's further output; answers a way to still print a line. */
  silence: () => (line: string) => void;
  print: (line: string) => void;
  exit: (code: number) => void;
  /** Stops the background work and gives back what it holds (lib/background/shutdown.ts); answers how many. */
  release?: () => Promise<number>;
  /** Writes what the process holds in memory and the database must keep (the usage counts), once the server is closed. */
  flush?: () => Promise<unknown>;
}

/**
 * The handler for the stop signals. Under `npm run` one Ctrl-C arrives twice (from the terminal, and forwarded by
 * npm), so a signal while stopping changes nothing.
 */
export function stopOnSignal(targets: StopTargets): () => Promise<void> {
  let stopping = false;
  return async () => {
    if (stopping) return;
    stopping = true;
    const print = targets.embedded ? targets.silence() : targets.print;
    // close() stops accepting and closes idle keep-alive connections; its callback comes when the last one closes.
    const drained = new Promise<void>((resolve) => targets.server.close(() => resolve()));
    if (targets.graceMs > 0) await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, targets.graceMs).unref())]);
    targets.server.closeAllConnections();
    if (targets.release) {
      try {
        await targets.release();
      } catch (error) {
        print(`The background work's claims were not given back (they lapse on their own): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (targets.flush) {
      try {
        await targets.flush();
      } catch (error) {
        print(`The usage counts of the last seconds were not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    try {
      await targets.embedded?.stop();
    } catch (error) {
      print(`Stopped; the embedded database did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
      return targets.exit(1);
    }
    print("Stopped.");
    targets.exit(0);
  };
}

/** Drops everything written to stdout and stderr from now on; the answer still prints to the terminal. */
export function silenceProcessOutput(): (line: string) => void {
  const write = process.stdout.write.bind(process.stdout);
  const drop = (() => true) as typeof process.stdout.write;
  process.stdout.write = drop;
  process.stderr.write = drop;
  return (line) => void write(`${line}\n`);
}
