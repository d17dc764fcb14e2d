import { z } from "zod";
import { MAX_REVENUE_SHARE_BPS } from "../../lib/revenue-share/schemas";
import { setMasterRevenueShare } from "../../lib/revenue-share/sub-accounts";
import { parseFlags, type Command } from "../cli-kit";

const revenueShareFlags = z.object({
  bps: z
    .string({ error: "is required" })
    .regex(/^\d{1,5}$/, "must be a whole number of basis points")
    .transform(Number)
    .pipe(z.number().max(MAX_REVENUE_SHARE_BPS, `must be at most ${MAX_REVENUE_SHARE_BPS}`)),
});

export const projectSetRevenueShare: Command = {
  words: ["project", "set-revenue-share"],
  synopsis: "proj_... --bps N [--json]",
  description:
    "Set a project's master revenue-share rate (beta): what its new sub-accounts earn unless they name less, and the most any may. " +
    "Sub-accounts and introductions already made keep their rates.",
  options: { bps: { type: "string", value: "N", description: `Basis points of principal funded, 0 to ${MAX_REVENUE_SHARE_BPS} (100 is 1%).` } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const projectId = positionals[0]!;
    const { bps } = parseFlags(revenueShareFlags, values);
    await setMasterRevenueShare(await database(), projectId, bps);
    print(`Project ${projectId} master revenue share: ${bps} bps.`, { project_id: projectId, revenue_share_bps: bps });
  },
};
