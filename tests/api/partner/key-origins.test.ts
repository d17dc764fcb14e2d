// A publishable key is bound to its partner's pages (docs/apply-js.md, "Which pages may use a key"), over HTTP:
// POST /partner/v1/keys refuses http://localhost on a live key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/keys/secrets";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { expectApiError, expectJson, jsonRequest } from "../../helpers/http";
import { bearer, createTestProject, mintToken } from "../../helpers/partner";

type Json = Record<string, any>;

const SHOP = "https://shop.example.com";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

function call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}/partner/v1${path}`, bearer(token, body === undefined ? { method } : jsonRequest(method, body)));
}

const keyIdOf = async (secret: string) => (await db().apiKey.findUniqueOrThrow({ where: { secretHash: hashSecret(secret) } })).id;

/** A fresh project, its sandbox and live partner:manage tokens, and the ids of its publishable and secret keys. */
async function freshProject() {
  const project = await createTestProject();
  return {
    project,
    sandbox: await mintToken(server.url, project),
    live: await mintToken(server.url, project, { environment: "live" }),
    keys: {
      sandboxPublishable: await keyIdOf(project.sandbox.publishable_key),
      sandboxSecret: await keyIdOf(project.sandbox.secret_key),
      livePublishable: await keyIdOf(project.live.publishable_key),
    },
  };
}

describe("POST /partner/v1/keys", () => {
  it("refuses a live publishable key with an http://localhost origin with 422 sandbox_only, and creates nothing; a sandbox key takes it", async () => {
    const { project, sandbox, live } = await freshProject();
    const refused = await expectApiError(await call(live, "POST", "/keys", { type: "publishable", allowed_origins: ["http://localhost:5173", SHOP] }), 422, "validation_failed");
    const message = "http://localhost:5173 may be listed on a sandbox key only: a live key's origins must be https.";
    expect(refused.error.detail).toEqual([{ field: "allowed_origins.0", reason: "sandbox_only", message }]);
    expect(await db().apiKey.count({ where: { projectId: project.project_id, environment: "live" } })).toBe(2);
    const created = await expectJson<Json>(await call(sandbox, "POST", "/keys", { type: "publishable", allowed_origins: ["http://localhost:5173", SHOP] }), 201);
    expect(created.allowed_origins).toEqual(["http://localhost:5173", SHOP]);
    expect((await expectJson<Json>(await call(live, "POST", "/keys", { type: "publishable", allowed_origins: [SHOP] }), 201)).allowed_origins).toEqual([SHOP]);
  });
});
