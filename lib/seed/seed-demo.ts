// The demo data `npm run dev` and `cli seed` create, idempotently. Secrets are only ever stored hashed, so the
// demo's sandbox credentials are kept in a git-ignored file under .data/ to be printed on every start; when
// that file is missing or stale, fresh sandbox keys are issued and the old ones revoked. The sandbox publishable
// key, which the apply.js demo page publishes (lib/apply-widget/demo.ts), is also kept on the project, and lists the
// demo page's origin among its allowed origins: a sandbox key needs none, but the demo shows keys as partners should
// keep them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clock } from "../clock";
import { config, type Config } from "../env";
import type { Database } from "../db";
import { hashSecret, newKeyRow } from "../keys/secrets";
import { createProject } from "../projects/create-project";
import { seedDemoApplications } from "./seed-applications";

export const DEMO_PROJECT_NAME = "Demo Partner";

export interface DemoCredentials {
  project_id: string;
  client_id: string;
  sandbox: { secret_key: string; publishable_key: string };
}

export interface SeedResult {
  created: { project: boolean; sandbox_keys: boolean; applications: number };
  demo: DemoCredentials;
}

function readCredentialsFile(file: string): DemoCredentials | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DemoCredentials;
  } catch {
    return null;
  }
}

function writeCredentialsFile(file: string, credentials: DemoCredentials): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

async function keysStillActive(database: Database, projectId: string, secrets: string[]): Promise<boolean> {
  const active = await database.apiKey.count({
    where: { projectId, status: "active", secretHash: { in: secrets.map(hashSecret) } },
  });
  return active === secrets.length;
}

async function reissueSandboxKeys(database: Database, projectId: string): Promise<DemoCredentials["sandbox"]> {
  const now = clock.now();
  const secret = newKeyRow({ projectId, type: "secret", environment: "sandbox", createdAt: now });
  const publishable = newKeyRow({ projectId, type: "publishable", environment: "sandbox", createdAt: now });
  await database.$transaction([
    database.apiKey.updateMany({
      where: { projectId, environment: "sandbox", status: "active" },
      data: { status: "revoked", revokedAt: now },
    }),
    database.apiKey.createMany({ data: [secret.row, publishable.row] }),
  ]);
  return { secret_key: secret.secret, publishable_key: publishable.secret };
}

/** The demo page's origin (/v1/demo is on JS_URL), added to what the key lists already. */
async function publishDemoKey(database: Database, projectId: string, publishableKey: string, demoOrigin: string): Promise<void> {
  await database.$transaction([
    database.project.update({ where: { id: projectId }, data: { demoPublishableKey: publishableKey } }),
    database.apiKey.updateMany({
      where: { projectId, secretHash: hashSecret(publishableKey), NOT: { allowedOrigins: { has: demoOrigin } } },
      data: { allowedOrigins: { push: demoOrigin } },
    }),
  ]);
}

/** Seeds the demo with the settings given: the process's, or those of the command that asked (cli seed). */
export async function seedDemo(database: Database, settings: Pick<Config, "DEMO_CREDENTIALS_FILE" | "JS_URL"> = config()): Promise<SeedResult> {
  const credentialsFile = path.resolve(settings.DEMO_CREDENTIALS_FILE);
  const demoOrigin = new URL(settings.JS_URL).origin;
  const existing = await database.project.findFirst({ where: { isDemo: true }, orderBy: { id: "asc" } });
  if (!existing) {
    const project = await createProject(database, { name: DEMO_PROJECT_NAME, tier: "build", isDemo: true });
    const demo = { project_id: project.project_id, client_id: project.client_id, sandbox: project.sandbox };
    writeCredentialsFile(credentialsFile, demo);
    await publishDemoKey(database, project.project_id, project.sandbox.publishable_key, demoOrigin);
    const applications = await seedDemoApplications(database, { id: project.project_id, clientId: project.client_id });
    return { created: { project: true, sandbox_keys: true, applications }, demo };
  }
  const saved = readCredentialsFile(credentialsFile);
  const savedSecrets = saved?.project_id === existing.id ? [saved.sandbox.secret_key, saved.sandbox.publishable_key] : [];
  const applications = await seedDemoApplications(database, existing);
  if (saved && savedSecrets.length > 0 && (await keysStillActive(database, existing.id, savedSecrets))) {
    await publishDemoKey(database, existing.id, saved.sandbox.publishable_key, demoOrigin);
    return { created: { project: false, sandbox_keys: false, applications }, demo: saved };
  }
  const sandbox = await reissueSandboxKeys(database, existing.id);
  const demo = { project_id: existing.id, client_id: existing.clientId, sandbox };
  writeCredentialsFile(credentialsFile, demo);
  await publishDemoKey(database, existing.id, sandbox.publishable_key, demoOrigin);
  return { created: { project: false, sandbox_keys: true, applications }, demo };
}
