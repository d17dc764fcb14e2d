// Creating a partner project with its OAuth client and a secret and publishable key per environment.
import { z } from "zod";
import { requestString } from "../wire/request-string";
import { clock } from "../clock";
import type { Database } from "../db";
import { newId } from "../ids";
import { newKeyRow, type KeyType } from "../keys/secrets";
import { DEFAULT_SCOPES, GRANTABLE_SCOPES, type GrantableScope } from "../oauth/scopes";
import type { TenantEnvironment } from "../tenant";

export const PROJECT_TIERS = ["build", "launch", "scale", "platform"] as const;
export type ProjectTier = (typeof PROJECT_TIERS)[number];

export const createProjectInputSchema = z.strictObject({
  name: requestString().trim().min(1).max(200),
  tier: z.enum(PROJECT_TIERS).default("build"),
  scopes: z.array(z.enum(GRANTABLE_SCOPES)).min(1).optional(),
  isDemo: z.boolean().default(false),
  /** Where the team's notifications are emailed (an endpoint disabled for failing). */
  ownerEmail: z.email().optional(),
});

export type CreateProjectInput = z.input<typeof createProjectInputSchema>;

export interface ProjectCredentials {
  project_id: string;
  client_id: string;
  sandbox: { secret_key: string; publishable_key: string };
  live: { secret_key: string; publishable_key: string };
  scopes: GrantableScope[];
}

export async function createProject(database: Database, input: CreateProjectInput): Promise<ProjectCredentials> {
  const { name, tier, scopes = [...DEFAULT_SCOPES], isDemo, ownerEmail } = createProjectInputSchema.parse(input);
  const now = clock.now();
  const projectId = newId("project");
  const clientId = newId("oauthClient");
  const issued: Record<`${KeyType}:${TenantEnvironment}`, string> = {} as never;
  const keyRows = (["sandbox", "live"] as const).flatMap((environment) =>
    (["secret", "publishable"] as const).map((type) => {
      const { secret, row } = newKeyRow({ projectId, type, environment, createdAt: now });
      issued[`${type}:${environment}`] = secret;
      return row;
    }),
  );
  await database.$transaction([
    database.project.create({
      data: { id: projectId, name, tier, clientId, scopes, isDemo, ownerEmail: ownerEmail ?? null, createdAt: now, updatedAt: now },
    }),
    database.apiKey.createMany({ data: keyRows }),
  ]);
  return {
    project_id: projectId,
    client_id: clientId,
    sandbox: { secret_key: issued["secret:sandbox"], publishable_key: issued["publishable:sandbox"] },
    live: { secret_key: issued["secret:live"], publishable_key: issued["publishable:live"] },
    scopes,
  };
}
