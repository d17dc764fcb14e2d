// The background functions under Inngest: the event-triggered decisioning, and one cron function per operation
// of the catalogue (lib/background/catalogue.ts), with the catalogue's id, cron, batch and step names. Each is thin:
// every step calls an idempotent operation in lib/, so a retried or duplicated run changes nothing. Events start
// work at once; the crons are the safety net that sweeps whatever an event missed (an event lost after commit, a
// deploy mid-run).
import type { BackgroundOperation } from "@/lib/background-operation";
import { BACKGROUND_CATALOGUE } from "@/lib/background/catalogue";
import { APPLICATION_SUBMITTED_EVENT, inngestClient } from "@/lib/jobs/inngest-client";

const inngest = inngestClient();

export const decideApplication = inngest.createFunction(
  { id: "decide-application", triggers: [{ event: APPLICATION_SUBMITTED_EVENT }] },
  async ({ event, step }) => {
    const applicationId = String((event.data as { application_id?: unknown }).application_id);
    return step.run("decide", () => BACKGROUND_CATALOGUE.decideApplication(applicationId));
  },
);

function cronFunction(operation: BackgroundOperation) {
  return inngest.createFunction({ id: operation.id, triggers: [{ cron: operation.cron }] }, async ({ step }) => {
    if (operation.kind === "pass") return step.run(operation.step, () => operation.run());
    const due = await step.run(operation.steps.find, () => operation.find(operation.batch));
    let done = 0;
    for (const id of due) {
      if (await step.run(`${operation.steps.each}-${id}`, () => operation.run(id))) done += 1;
    }
    return { [operation.counts]: done };
  });
}

/** The cron function of each catalogue operation, by the operation's id. */
export const cronFunctions = new Map<string, ReturnType<typeof cronFunction>>(
  BACKGROUND_CATALOGUE.operations.map((operation) => [operation.id, cronFunction(operation)] as const),
);

export const functions = [decideApplication, ...cronFunctions.values()];
