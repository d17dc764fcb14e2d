import { z } from "zod";
import { DECLINE_REASONS } from "../../lib/decisions/engine";
import { notFound } from "../../lib/errors";
import { DecisionLockError, decisionTenant, lockDecision, releaseDecision, resolveReferral } from "../../lib/decisions/service";
import { tenantNow } from "../../lib/tenant-clock";
import { parseFlags, UsageError, type Command } from "../cli-kit";

/** The time now on the clock of the decision's own project and environment: the operator acts for whichever holds it. */
async function decisionNowOrThrow(id: string, missing: () => Error): Promise<Date> {
  const tenant = await decisionTenant(id);
  if (!tenant) throw missing();
  return tenantNow(tenant);
}

const lockFlags = z.object({ by: z.string().trim().min(1, "must not be empty").default("operator") });

export const decisionLock: Command = {
  words: ["decision", "lock"],
  synopsis: "dec_... [--by NAME] [--json]",
  description: "Lock a declined decision: refreshes and other changes answer 423 decision_locked until released.",
  options: { by: { type: "string", value: "NAME", description: "Who locks it, kept with the lock (default: operator)." } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const id = positionals[0]!;
    const { by } = parseFlags(lockFlags, values);
    await database();
    const decision = await lockDecision(id, by, await decisionNowOrThrow(id, () => new DecisionLockError(`No such decision: ${id}`)));
    print(`Decision ${id} is locked.`, decision);
  },
};

export const decisionRelease: Command = {
  words: ["decision", "release"],
  synopsis: "dec_... [--json]",
  description: "Release a locked decision (owner-level: whoever runs the CLI has the platform's database).",
  options: {},
  positionals: 1,
  async run({ positionals, database, print }) {
    const id = positionals[0]!;
    await database();
    const decision = await releaseDecision(id);
    print(`Decision ${id} is released.`, decision);
  },
};

const resolveFlags = z.object({
  outcome: z.enum(["approved", "declined"], { error: "must be approved or declined" }),
  reason: z.enum(DECLINE_REASONS).optional(),
});

export const decisionResolve: Command = {
  words: ["decision", "resolve"],
  synopsis: "dec_... --outcome approved|declined [--reason REASON] [--json]",
  description: "Resolve a referred decision as an underwriter (sandbox or live).",
  options: {
    outcome: { type: "string", value: "approved|declined", description: "The underwriter's answer." },
    reason: { type: "string", value: "REASON", description: "For declined: the decline reason code (e.g. adverse_credit)." },
  },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const id = positionals[0]!;
    const flags = parseFlags(resolveFlags, values);
    if (flags.outcome === "approved" && flags.reason) throw new UsageError("--reason applies only to --outcome declined");
    await database();
    const decision = await resolveReferral({ decisionId: id, now: await decisionNowOrThrow(id, () => notFound("decision", id)), ...flags });
    print(`Decision ${id} is now ${decision.outcome} (version ${decision.version}).`, decision);
  },
};
