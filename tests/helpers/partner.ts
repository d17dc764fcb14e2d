// Test fixtures for the partner API: a real project (through the same service the CLI uses) and real tokens
// from the token endpoint.
import { db } from "@/lib/db";
import { createProject, type CreateProjectInput, type ProjectCredentials } from "@/lib/projects/create-project";

let counter = 0;

export async function createTestProject(input: Partial<CreateProjectInput> = {}): Promise<ProjectCredentials> {
  counter += 1;
  return createProject(db(), { name: `Test Partner ${process.pid}-${counter}`, ...input });
}

export function basicAuthorization(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

export interface TokenOptions {
  environment?: "sandbox" | "live";
  scope?: string;
  secret?: string;
}

/**
 * POSTs to the token endpoint with client_secret_basic and returns the response. Like a well-behaved client it
 * honours a 429's Retry-After (the endpoint allows 10 requests a second per client) before trying again.
 */
export async function requestToken(baseUrl: string, project: ProjectCredentials, options: TokenOptions = {}, path = "/partner/v1/oauth/token"): Promise<Response> {
  const secret = options.secret ?? project[options.environment ?? "sandbox"].secret_key;
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (options.scope !== undefined) form.set("scope", options.scope);
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: basicAuthorization(project.client_id, secret), "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    if (response.status !== 429 || attempt === 3) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? 1) * 1000));
  }
}

/** A valid access token, or a thrown error describing why none was issued. */
export async function mintToken(baseUrl: string, project: ProjectCredentials, options: TokenOptions = {}): Promise<string> {
  const response = await requestToken(baseUrl, project, options);
  const body = await response.json();
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token as string;
}

export function bearer(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } };
}
