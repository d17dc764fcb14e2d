import { z } from "zod";
import { clock } from "../../lib/clock";
import { usageByDay } from "../../lib/usage/service";
import { parseFlags, type Command } from "../cli-kit";

const usageFlags = z.object({ project: z.string().startsWith("proj_"), environment: z.enum(["sandbox", "live"]).default("live") });

export const usageShow: Command = {
  words: ["usage"],
  synopsis: "--project proj_... [--environment sandbox|live] [--json]",
  description: "A project's partner API requests and 429s per UTC day, the last 30 days, oldest first (written every 10 s).",
  options: {
    project: { type: "string", value: "proj_...", description: "The project." },
    environment: { type: "string", value: "sandbox|live", description: "Which environment's requests (default live)." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(usageFlags, values);
    const project = await (await database()).project.findUnique({ where: { id: flags.project }, select: { id: true } });
    if (!project) throw new Error(`No such project: ${flags.project}`);
    const days = await usageByDay({ projectId: flags.project, environment: flags.environment }, { days: 30, now: clock.now() });
    const lines = days.map((day) => `${day.date}  ${String(day.requests).padStart(9)} requests  ${String(day.rate_limited).padStart(7)} rate limited`);
    print([`${flags.project} (${flags.environment}), last 30 days:`, ...lines].join("\n"), days);
  },
};
