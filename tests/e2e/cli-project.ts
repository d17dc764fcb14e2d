// A partner project made by the admin CLI, as an operator would make one, and a sandbox token for it; any other
// admin CLI command, as an operator would run it.
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface CliProject {
  project_id: string;
  client_id: string;
  sandbox: { secret_key: string };
}

export function createProjectWithCli(name: string): CliProject {
  return cliJson("project", "create", "--name", name) as unknown as CliProject;
}

/** Runs an admin CLI command with `--json` and answers its JSON. */
export function cliJson(...args: string[]): Record<string, string> {
  const output = execFileSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "bin", "cli.ts"), ...args, "--json"], { cwd: root, env: process.env });
  return JSON.parse(output.toString());
}


export function basicAuthorization(project: CliProject): string {
  return `Basic ${Buffer.from(`${project.client_id}:${project.sandbox.secret_key}`).toString("base64")}`;
}

/** Authorization headers with a sandbox access token carrying every scope of the project. */
export async function sandboxHeaders(request: APIRequestContext, project: CliProject): Promise<{ authorization: string }> {
  const response = await request.post("/partner/v1/oauth/token", { headers: { authorization: basicAuthorization(project) }, form: { grant_type: "client_credentials" } });
  if (response.status() !== 200) throw new Error(`token request failed: ${response.status()} ${await response.text()}`);
  return { authorization: `Bearer ${(await response.json()).access_token}` };
}
