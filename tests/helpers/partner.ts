// Test fixtures for the partner API: a real project (through the same service the CLI uses) and real tokens
// from the token endpoint.
import { db } from "@/lib/db";
import { decideOnItsClock } from "@/lib/decisions/background";
import { mintAccessToken, PARTNER_AUDIENCE } from "@/lib/oauth/access-tokens";
import { changeProjectCapabilities, type ProjectCapability } from "@/lib/projects/capabilities";
import { readProjectState } from "@/lib/projects/project-state";
import type { Tenant } from "@/lib/tenant";
import { eventually } from "./eventually";
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

/** POSTs to the token endpoint with client_secret_basic and returns the response, whatever it is. */
export async function requestToken(baseUrl: string, project: ProjectCredentials, options: TokenOptions = {}, path = "/partner/v1/oauth/token"): Promise<Response> {
  const secret = options.secret ?? project[options.environment ?? "sandbox"].secret_key;
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (options.scope !== undefined) form.set("scope", options.scope);
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: basicAuthorization(project.client_id, secret), "content-type": "application/x-www-form-urlencoded" },
    body: form,
  });
}

/**
 * A valid access token for the project. Tests of the token endpoint call it over HTTP (`requestToken`); every
 * other test gets its token from the same service the endpoint uses, so a file that needs many tokens never
 * meets the endpoint's per-client limit (10 a second) and never waits one out. A given `secret` (a rolled or
 * new key) goes through the endpoint, which checks it.
 */
export async function mintToken(baseUrl: string, project: ProjectCredentials, options: TokenOptions = {}): Promise<string> {
  if (options.secret === undefined) {
    const state = await readProjectState(project.project_id);
    if (!state) throw new Error(`no such project: ${project.project_id}`);
    const requested = options.scope?.split(" ").filter(Boolean) ?? state.scopes;
    const missing = requested.filter((scope) => !state.scopes.includes(scope));
    if (missing.length > 0) throw new Error(`scope not granted to ${project.project_id}: ${missing.join(" ")}`);
    const minted = await mintAccessToken({ projectId: project.project_id, clientId: project.client_id, environment: options.environment ?? "sandbox", scopes: requested, audience: PARTNER_AUDIENCE });
    return minted.accessToken;
  }
  const response = await requestToken(baseUrl, project, options);
  const body = await response.json();
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token as string;
}

export interface TestPartner {
  project: ProjectCredentials;
  token: string;
  tenant: Tenant;
}

/** A project of its own (its own rate-limit buckets) with `capabilities` enabled, and a token for it. */
export async function createTestPartner(baseUrl: string, options: TokenOptions & { capabilities?: ProjectCapability[] } = {}): Promise<TestPartner> {
  const project = await createTestProject();
  if (options.capabilities?.length) await changeProjectCapabilities(db(), project.project_id, { enable: options.capabilities });
  return {
    project,
    token: await mintToken(baseUrl, project, options),
    tenant: { projectId: project.project_id, environment: options.environment ?? "sandbox" },
  };
}

export function bearer(token: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } };
}

/** Reads an application (`read`, over HTTP) until it is decided, running its decisioning as the background driver would. */
export function untilDecided<T extends Record<string, any>>(id: string, read: () => Promise<T>): Promise<T> {
  return eventually(read, (application) => application.status !== "submitted" && Boolean(application.decision), {
    drive: () => decideOnItsClock(id),
  });
}
