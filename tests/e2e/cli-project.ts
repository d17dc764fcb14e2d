// A partner project made by the admin CLI, as an operator would make one, and a sandbox token for it; any other
// admin CLI command, as an operator would run it. The CLI runs in this worker's process (bin/command-line.ts),
// which spares a process start per command, on this process's DATABASE_URL: the server's. Each command opens its
// own connection to it and closes it as it ends, so nothing stays open between tests.
import type { APIRequestContext } from "@playwright/test";
import { runCommandLine } from "@/bin/command-line";

export interface CliProject {
  project_id: string;
  client_id: string;
  sandbox: { secret_key: string };
}

export async function createProjectWithCli(name: string): Promise<CliProject> {
  return (await cliJson("project", "create", "--name", name)) as unknown as CliProject;
}

/**
 * Runs an admin CLI command with this process's environment changed by `env` (the variables the command reads,
 * as an operator would set them in its shell); answers what it printed, and throws if it fails.
 */
export async function cliWith(env: Record<string, string>, ...args: string[]): Promise<string> {
  let stdout = "";
  let stderr = "";
  const code = await runCommandLine(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, ...env },
  });
  if (code !== 0) throw new Error(`cli ${args[0]} exited with ${code}: ${stderr}`);
  return stdout;
}

/** Runs an admin CLI command; answers what it printed, and throws if it fails. */
export function cli(...args: string[]): Promise<string> {
  return cliWith({}, ...args);
}

/** Runs an admin CLI command with `--json` and answers its JSON. */
export async function cliJson(...args: string[]): Promise<Record<string, string>> {
  return JSON.parse(await cli(...args, "--json"));
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
