// Background work: Postgres holds the truth (an application in `submitted`, one past `expires_at`), and one of
// two drivers runs the idempotent operations over it (docs/architecture.md):
//   - Inngest, when configured: events sent after commit start the functions in inngest/, crons sweep the rest;
//   - the local driver otherwise (the embedded default, and CI): an immediate in-process run after commit, plus
//     a short interval sweep of due work.
// What runs, how often and how each operation claims its rows is one catalogue both read (operations.ts).
import { describeError, log } from "../log";

export interface BackgroundDriver {
  readonly name: "inngest" | "local";
  /** Called after the transaction that submitted the application has committed. */
  applicationSubmitted(applicationId: string): void;
  start(): void;
  stop(): void;
}

let driver: BackgroundDriver | undefined;
let loading: Promise<BackgroundDriver> | undefined;

async function loadDriver(): Promise<BackgroundDriver> {
  const { inngestConfigured } = await import("./inngest-client");
  if (inngestConfigured()) {
    const { InngestDriver } = await import("./inngest-driver");
    return new InngestDriver();
  }
  const { LocalDriver } = await import("./local-driver");
  return new LocalDriver();
}

/** The process's driver (chosen once, from configuration). */
export async function backgroundDriver(): Promise<BackgroundDriver> {
  if (driver) return driver;
  loading ??= loadDriver().then((loaded) => {
    driver = loaded;
    return loaded;
  });
  return loading;
}

/** Starts the driver's sweeps (the app server calls this once at start). */
export async function startBackgroundWork(): Promise<BackgroundDriver> {
  const started = await backgroundDriver();
  started.start();
  log.info("background work", { driver: started.name });
  return started;
}

/** Hooks the services call once their transaction has committed. Never throw: Postgres already holds the truth. */
export const afterCommit = {
  applicationSubmitted(applicationId: string): void {
    backgroundDriver().then(
      (loaded) => loaded.applicationSubmitted(applicationId),
      (error: unknown) => log.warn("background driver unavailable", describeError(error)),
    );
  },
};
