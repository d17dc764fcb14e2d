import { z } from "zod";
import { PROJECT_TIERS, createProject } from "../../lib/projects/create-project";
import { parseFlags, type Command } from "../cli-kit";

const createFlags = z.object({
  name: z.string({ error: "is required" }).trim().min(1, "must not be empty"),
  tier: z.enum(PROJECT_TIERS).default("build"),
});

export const projectCreate: Command = {
  words: ["project", "create"],
  synopsis: "--name NAME [--tier build|launch|scale|platform] [--json]",
  description: "Create a partner project with its OAuth client and sandbox and live keys (secrets shown once).",
  options: { name: { type: "string" }, tier: { type: "string" } },
  async run({ values, database, print }) {
    const flags = parseFlags(createFlags, values);
    const project = await createProject(await database(), flags);
    print(
      [
        `Created project ${project.project_id} (${flags.tier})`,
        `  client_id               ${project.client_id}`,
        `  sandbox secret key      ${project.sandbox.secret_key}`,
        `  sandbox publishable key ${project.sandbox.publishable_key}`,
        `  live secret key         ${project.live.secret_key}`,
        `  live publishable key    ${project.live.publishable_key}`,
        `  scopes                  ${project.scopes.join(" ")}`,
        "Secrets are shown once; store them now.",
      ].join("\n"),
      project,
    );
  },
};
