import { z } from "zod";
import { PROJECT_TIERS, createProject } from "../../lib/projects/create-project";
import { revokeOutstandingTokens, setProjectStatus } from "../../lib/projects/manage-project";
import { parseFlags, type Command } from "../cli-kit";

const createFlags = z.object({
  name: z.string({ error: "is required" }).trim().min(1, "must not be empty"),
  tier: z.enum(PROJECT_TIERS).default("build"),
  "owner-email": z.email("must be an email address").optional(),
});

export const projectCreate: Command = {
  words: ["project", "create"],
  synopsis: "--name NAME [--tier build|launch|scale|platform] [--owner-email EMAIL] [--json]",
  description: "Create a partner project with its OAuth client and sandbox and live keys (secrets shown once).",
  options: {
    name: { type: "string", value: "NAME", description: "The project's name." },
    tier: { type: "string", value: "build|launch|scale|platform", description: "The tier, which sets its live rate limits (default build)." },
    "owner-email": { type: "string", value: "EMAIL", description: "Where notifications to the partner's team are emailed." },
  },
  async run({ values, database, print }) {
    const flags = parseFlags(createFlags, values);
    const project = await createProject(await database(), { name: flags.name, tier: flags.tier, ownerEmail: flags["owner-email"] });
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

function statusCommand(status: "active" | "suspended", word: string, description: string): Command {
  return {
    words: ["project", word],
    synopsis: "proj_... [--json]",
    description,
    options: {},
    positionals: 1,
    async run({ positionals, database, print }) {
      const projectId = positionals[0]!;
      await setProjectStatus(await database(), projectId, status);
      print(`Project ${projectId} is ${status}.`, { project_id: projectId, status });
    },
  };
}

export const projectSuspend = statusCommand("suspended", "suspend", "Suspend a project: its tokens and token requests get 403 account_suspended.");
export const projectActivate = statusCommand("active", "activate", "Re-activate a suspended project.");

const revokeFlags = z.object({ environment: z.enum(["sandbox", "live"]).optional() });

export const projectRevokeTokens: Command = {
  words: ["project", "revoke-tokens"],
  synopsis: "proj_... [--environment sandbox|live] [--json]",
  description: "Revoke every access token already minted (both environments unless one is given).",
  options: { environment: { type: "string", value: "sandbox|live", description: "Only this environment's tokens; both when absent." } },
  positionals: 1,
  async run({ positionals, values, database, print }) {
    const projectId = positionals[0]!;
    const { environment } = parseFlags(revokeFlags, values);
    const environments = environment ? [environment] : (["sandbox", "live"] as const);
    await revokeOutstandingTokens(await database(), projectId, [...environments]);
    print(`Revoked outstanding ${environments.join(" and ")} tokens of ${projectId}.`, { project_id: projectId, environments });
  },
};
