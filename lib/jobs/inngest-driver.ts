// The Inngest driver: events after commit; the functions themselves live in inngest/ and are served at
// /api/inngest. Its crons sweep due work, so there is nothing to start in process.
import { describeError, log } from "../log";
import { APPLICATION_SUBMITTED_EVENT, inngestClient } from "./inngest-client";
import type { BackgroundDriver } from "./driver";

export class InngestDriver implements BackgroundDriver {
  readonly name = "inngest" as const;

  applicationSubmitted(applicationId: string): void {
    inngestClient().send({ name: APPLICATION_SUBMITTED_EVENT, data: { application_id: applicationId } }).catch((error: unknown) => {
      // The sweep-decisioning cron picks the application up within a minute.
      log.warn("inngest send failed", { application_id: applicationId, ...describeError(error) });
    });
  }

  start(): void {}

  stop(): void {}
}
