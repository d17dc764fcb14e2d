// The pool's bulkhead (docs/reliability.md, "No tenant can take the platform down"): work done for a project (a
// bearer-authenticated request's handler, a test-clock advance) runs in that project's scope, and the one pool
// hands a connection to such work only while the project holds fewer than its share of the pool's connections;
// the project's further work waits in a queue of its own, in order, rather than in the pool's, where it would
// stand ahead of every other tenant. Work outside any project's scope (background sweeps, the site) is not gated.
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { Semaphore } from "./semaphore";

/** One unit of work for a project (a request, an advance): the connections it holds now. */
interface ProjectScope {
  projectId: string;
  connections: number;
}

const scopes = new AsyncLocalStorage<ProjectScope>();

/** Runs `work` (and everything it starts) for `projectId`: its connections count against the project's share. */
export function runForProject<T>(projectId: string, work: () => T): T {
  return scopes.run({ projectId, connections: 0 }, work);
}

/** Runs `work` as no project's: for one query that serves several projects at once (a batched read). */
export function outsideProjects<T>(work: () => T): T {
  return scopes.exit(work);
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

const noop = () => undefined;

const MAX_IDLE_SHARES = 10_000;

/**
 * Puts `share` (per project, at least 1) in front of `pool.connect`, which `pool.query` also goes through. A
 * unit of work already holding a connection gets its next one without waiting (a transaction that reads outside
 * itself would otherwise wait for itself); it still counts. A wait longer than `timeoutMs` fails as the pool's
 * own does (lib/db.ts reads it as the database unavailable: 503).
 */
export function guardPool(pool: pg.Pool, share: number, timeoutMs: number): pg.Pool {
  const shares = new Map<string, Semaphore>();
  const original = pool.connect.bind(pool) as (callback?: ConnectCallback) => Promise<pg.PoolClient> | void;
  const timedOut = () => new Error("timeout exceeded when trying to connect: the project's share of the pool is in use");

  // Kept while idle (making one per connection would cost more than the rest of the check); idle projects are
  // forgotten only when many have gathered.
  function shareOf(projectId: string): Semaphore {
    let places = shares.get(projectId);
    if (places) return places;
    if (shares.size >= MAX_IDLE_SHARES) for (const [id, candidate] of shares) if (candidate.idle) shares.delete(id);
    shares.set(projectId, (places = new Semaphore(share)));
    return places;
  }

  // The hot path: no closure is made before a place is had, and one per connection handed out.
  function checkOut(scope: ProjectScope, places: Semaphore, callback: ConnectCallback): void {
    scope.connections += 1;
    original((error, client, done) => {
      if (error || !client) {
        scope.connections -= 1;
        places.give();
        return callback(error, client, done);
      }
      const release = client.release;
      let given = false;
      client.release = (releaseError?: Error | boolean) => {
        if (!given) {
          given = true;
          scope.connections -= 1;
          places.give();
        }
        return release(releaseError);
      };
      callback(undefined, client, client.release);
    });
  }

  function connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const scope = scopes.getStore();
    if (!scope) return original(callback);
    if (!callback) return new Promise((resolve, reject) => connect((error, client) => (error ? reject(error) : resolve(client!))));
    const places = shareOf(scope.projectId);
    if (scope.connections > 0) places.takeNow();
    else if (!places.tryTake()) {
      places.take(timeoutMs, timedOut).then(() => checkOut(scope, places, callback), (error: Error) => callback(error, undefined, noop));
      return;
    }
    checkOut(scope, places, callback);
  }

  pool.connect = connect as typeof pool.connect;
  return pool;
}
