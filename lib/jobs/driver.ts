// What the scheduler is handed and what runs it: the catalogue (composed from the domains' operations in
// lib/background/catalogue.ts; their shape is lib/background-operation.ts) and the two drivers.
import type { BackgroundOperation } from "../background-operation";

/** What the drivers run: the catalogue's operations, and the decisioning a submission starts at once. */
export interface BackgroundCatalogue {
  operations: readonly BackgroundOperation[];
  /** Decides a submitted application (after its submission commits: at once in process, or on Inngest's event). */
  decideApplication(applicationId: string): Promise<unknown>;
}

/** One of the two drivers (background.ts chooses): what runs the catalogue. */
export interface BackgroundDriver {
  readonly name: "inngest" | "local";
  /** Called after the transaction that submitted the application has committed. */
  applicationSubmitted(applicationId: string): void;
  start(): void;
  stop(): void;
}
