// Cached keys and project state (lib/change-feed.ts): served from memory while this process listens for
// changes, dropped as soon as another connection commits a change, and read fresh whenever it is not listening.
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { changeFeed, ListenedCache, stopChangeFeed, type WatchedTable } from "@/lib/change-feed";
import { db, disconnectDatabase } from "@/lib/db";
import { authenticateClient } from "@/lib/oauth/client-authentication";
import type { ApiError } from "@/lib/errors";
import { readProjectState } from "@/lib/projects/project-state";
import type { ProjectCredentials } from "@/lib/projects/create-project";
import { createTestProject } from "../helpers/partner";
import { eventually } from "../helpers/eventually";

/** A connection of its own, standing for another process (the admin CLI, another app server, psql). */
let otherProcess: pg.Client;
let project: ProjectCredentials;

beforeAll(async () => {
  otherProcess = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await otherProcess.connect();
});

afterAll(async () => {
  await otherProcess?.end();
  await disconnectDatabase();
});

beforeEach(async () => {
  await listening();
  // Its creation is heard before the test starts, so it cannot drop what the test caches.
  project = await heard("projects", () => createTestProject(), (created) => created.project_id);
});

/** Resolves once the feed is listening (it starts on the first cached read). */
async function listening(): Promise<void> {
  await eventually(async () => changeFeed().isListening(), (listening) => listening, { timeoutMs: 2_000 });
}

/** Runs `write`, then resolves once this process has heard that it changed row `idOf(result)` of `table`. */
async function heard<T>(table: WatchedTable, write: () => Promise<T>, idOf: (result: T) => string): Promise<T> {
  const ids: (string | null)[] = [];
  const stop = changeFeed().subscribe(table, (id) => ids.push(id));
  try {
    const result = await write();
    await eventually(async () => ids, (heardIds) => heardIds.includes(idOf(result)));
    return result;
  } finally {
    stop();
  }
}

/** Runs `write` from the other connection and waits until this process has heard that it changed `id`. */
function changed(table: WatchedTable, id: string, sql: string, values: unknown[]): Promise<unknown> {
  return heard(table, () => otherProcess.query(sql, values), () => id);
}

async function keyIdOf(secret: string): Promise<string> {
  const { rows } = await otherProcess.query<{ id: string }>("SELECT id FROM api_keys WHERE secret_hash = encode(sha256($1::bytea), 'hex')", [secret]);
  return rows[0]!.id;
}

async function revokeFromElsewhere(secret: string): Promise<void> {
  await changed("api_keys", await keyIdOf(secret), "UPDATE api_keys SET status = 'revoked' WHERE secret_hash = encode(sha256($1::bytea), 'hex')", [secret]);
}

/** Changes rows from the other connection with triggers off, so no notification is sent. */
async function silently(sql: string, values: unknown[]): Promise<void> {
  await otherProcess.query("BEGIN");
  await otherProcess.query("SET LOCAL session_replication_role = replica");
  await otherProcess.query(sql, values);
  await otherProcess.query("COMMIT");
}

function authenticate(secret = project.live.secret_key) {
  return authenticateClient({ authorization: null, form: { client_id: project.client_id, client_secret: secret } });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "authenticated",
    (error: ApiError) => error.code,
  );
}

describe("the key cache", () => {
  it("serves a key from memory while listening: a change nobody announced is not seen", async () => {
    await authenticate();
    await silently("UPDATE api_keys SET status = 'revoked' WHERE secret_hash = encode(sha256($1::bytea), 'hex')", [project.live.secret_key]);
    expect((await authenticate()).projectId).toBe(project.project_id);
  });

  it("drops a key as soon as another process revokes it", async () => {
    await authenticate();
    await revokeFromElsewhere(project.live.secret_key);
    expect(await rejection(authenticate())).toBe("key_revoked");
  });

  it("drops a key when another process ends its overlap after a roll", async () => {
    await authenticate();
    const keyId = await keyIdOf(project.live.secret_key);
    await changed("api_keys", keyId, "UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [keyId]);
    expect(await rejection(authenticate())).toBe("key_revoked");
  });

  it("keeps other keys when one changes", async () => {
    await authenticate(project.live.secret_key);
    await authenticate(project.sandbox.secret_key);
    await silently("UPDATE api_keys SET status = 'revoked' WHERE secret_hash = encode(sha256($1::bytea), 'hex')", [project.sandbox.secret_key]);
    await revokeFromElsewhere(project.live.secret_key);
    expect(await rejection(authenticate(project.live.secret_key))).toBe("key_revoked");
    // Still served from memory: only the changed key was dropped.
    expect((await authenticate(project.sandbox.secret_key)).environment).toBe("sandbox");
  });

  it("does not notify for last_used_at, which changes as keys are used", async () => {
    const keyChanges: (string | null)[] = [];
    const stop = changeFeed().subscribe("api_keys", (id) => keyChanges.push(id));
    await otherProcess.query("UPDATE api_keys SET last_used_at = now() WHERE project_id = $1", [project.project_id]);
    // Notifications arrive in commit order: once this one is heard, any for the keys would have been.
    await changed("projects", project.project_id, "UPDATE projects SET name = name WHERE id = $1", [project.project_id]);
    stop();
    expect(keyChanges).toEqual([]);
  });

  it("reads fresh while not listening", async () => {
    await authenticate();
    await stopChangeFeed();
    await silently("UPDATE api_keys SET status = 'revoked' WHERE secret_hash = encode(sha256($1::bytea), 'hex')", [project.live.secret_key]);
    expect(await rejection(authenticate())).toBe("key_revoked");
  });
});

describe("the project cache", () => {
  it("sees a suspension by another process as soon as it commits", async () => {
    expect((await readProjectState(project.project_id))?.status).toBe("active");
    await changed("projects", project.project_id, "UPDATE projects SET status = 'suspended' WHERE id = $1", [project.project_id]);
    expect((await readProjectState(project.project_id))?.status).toBe("suspended");
  });

  it("serves project state from memory while listening", async () => {
    await readProjectState(project.project_id);
    await silently("UPDATE projects SET status = 'suspended' WHERE id = $1", [project.project_id]);
    expect((await readProjectState(project.project_id))?.status).toBe("active");
  });

  it("does not keep a project unknown a moment ago once it is created", async () => {
    const id = `proj_created_later_${process.pid}`;
    expect(await readProjectState(id)).toBeNull();
    await changed("projects", id, "INSERT INTO projects (id, name, client_id, scopes, created_at, updated_at) VALUES ($1, 'Later', $2, '{}', now(), now())", [id, `svc_client_${id}`]);
    expect((await readProjectState(id))?.id).toBe(id);
    await db().project.delete({ where: { id } });
  });
});

describe("ListenedCache", () => {
  it("does not keep a value read while a change was announced", async () => {
    const cache = new ListenedCache<string>("projects", { ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    const racing = () => {
      loads += 1;
      changeFeed().announce("projects", "proj_other");
      return Promise.resolve(`read ${loads}`);
    };
    expect(await cache.read("proj_x", racing)).toBe("read 1");
    expect(await cache.read("proj_x", async () => `read ${(loads += 1)}`)).toBe("read 2");
    expect(await cache.read("proj_x", async () => "not read")).toBe("read 2");
  });

  it("reads through, keeping nothing, while not listening", async () => {
    const cache = new ListenedCache<string>("projects", { ttlMs: 60_000, maxEntries: 10 });
    await stopChangeFeed();
    // No I/O happens between these reads, so the feed cannot be back in between.
    expect(await cache.read("proj_x", async () => "first")).toBe("first");
    expect(await cache.read("proj_x", async () => "second")).toBe("second");
    expect(changeFeed().isListening()).toBe(false);
  });

  it("does not keep a miss", async () => {
    const cache = new ListenedCache<string>("api_keys", { ttlMs: 60_000, maxEntries: 10, rowIdOf: (value) => value });
    expect(await cache.read("hash", async () => undefined)).toBeUndefined();
    expect(await cache.read("hash", async () => "key_1")).toBe("key_1");
    expect(await cache.read("hash", async () => "key_2")).toBe("key_1");
  });

  it("shares one load among the callers that miss the same key together", async () => {
    const cache = new ListenedCache<string>("projects", { ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    let finish!: (value: string) => void;
    const slow = () => {
      loads += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const readers = [cache.read("proj_x", slow), cache.read("proj_x", slow), cache.read("proj_x", slow)];
    const otherKey = cache.read("proj_y", async () => "y");
    finish("x");
    expect(await Promise.all(readers)).toEqual(["x", "x", "x"]);
    expect(await otherKey).toBe("y");
    expect(loads).toBe(1);
  });

  it("does not hand a load that started before a change to the callers after it", async () => {
    const cache = new ListenedCache<string>("projects", { ttlMs: 60_000, maxEntries: 10 });
    let finishOld!: (value: string) => void;
    const before = cache.read("proj_x", () => new Promise<string>((resolve) => (finishOld = resolve)));
    changeFeed().announce("projects", "proj_x");
    const after = cache.read("proj_x", async () => "after the change");
    finishOld("before the change");
    expect(await before).toBe("before the change");
    expect(await after).toBe("after the change");
    expect(await cache.read("proj_x", async () => "not read")).toBe("after the change");
  });

  it("loads again after a shared load fails", async () => {
    const cache = new ListenedCache<string>("projects", { ttlMs: 60_000, maxEntries: 10 });
    const failing = [cache.read("proj_x", () => Promise.reject(new Error("database down"))), cache.read("proj_x", async () => "not asked")];
    for (const read of failing) await expect(read).rejects.toThrow("database down");
    expect(await cache.read("proj_x", async () => "back")).toBe("back");
  });

  it("expires entries after their time to live", async () => {
    const cache = new ListenedCache<string>("api_keys", { ttlMs: 0, maxEntries: 10 });
    expect(await cache.read("k", async () => "first")).toBe("first");
    expect(await cache.read("k", async () => "second")).toBe("second");
  });
});
