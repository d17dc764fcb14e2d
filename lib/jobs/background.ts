// Background work: Postgres holds the truth (an application in `submitted`, one past `expires_at`), and one of
// two drivers runs the idempotent operations over it (docs/architecture.md):
//   - Inngest, when configured: events sent after commit start the functions in inngest/, crons sweep the rest;
//   - the local driver otherwise (the embedded default, and CI): an immediate in-process run after commit, plus
//     a short interval sweep of due work.
// What runs, how often and how each operation claims its rows is one catalogue both read, composed from the
// domains outside this folder (lib/background/catalogue.ts) and handed in: nothing here imports a domain.
import { log } from "../log";
import type { BackgroundCatalogue, BackgroundDriver } from "./driver";

let driver: BackgroundDriver | undefined;
let loading: Promise<BackgroundDriver> | undefined;

async function loadDriver(catalogue: BackgroundCatalogue): Promise<BackgroundDriver> {
  const { inngestConfigured } = await import("./inngest-client");
  if (inngestConfigured()) {
    const { InngestDriver } = await import("./inngest-driver");
    return new InngestDriver();
  }
  const { LocalDriver } = await import("./local-driver");
  return new LocalDriver(catalogue);
}

/** The process's driver (chosen once, from configuration), running `catalogue`. */
export async function backgroundDriver(catalogue: BackgroundCatalogue): Promise<BackgroundDriver> {
  if (driver) return driver;
  loading ??= loadDriver(catalogue).then((loaded) => {
    driver = loaded;
    return loaded;
  });
  return loading;
}

/** Starts the driver's sweeps (the app server does this once at start). */
export async function startBackgroundDriver(catalogue: BackgroundCatalogue): Promise<BackgroundDriver> {
  const started = await backgroundDriver(catalogue);
  started.start();
  log.info("background work", { driver: started.name });
  return started;
}
