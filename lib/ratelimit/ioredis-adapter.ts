// Gives @upstash/ratelimit the two calls it makes on its Redis client (`evalsha`, and `eval` on NOSCRIPT) over a
// plain Redis through ioredis, so its Lua scripts run unchanged on a real server. Redis 7.0 rejects the
// scripts' `#!lua flags=allow-key-locking` shebang, so it is stripped; the adapter maps Upstash's hash of the
// original script to the hash of the stripped one it actually loaded.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

export interface ScriptClient {
  evalsha(hash: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const withoutShebang = (script: string) => script.replace(/^\s*#![^\n]*\n/, "");
const asArgument = (value: unknown) => (value === null || value === undefined ? "" : String(value));

export function ioredisScriptClient(client: Redis): ScriptClient {
  const loadedShaByUpstashHash = new Map<string, string>();
  return {
    async evalsha(hash, keys, args) {
      const loaded = loadedShaByUpstashHash.get(hash);
      // Unknown to this adapter: answer as Redis would, so the caller falls back to `eval`.
      if (!loaded) throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      return client.evalsha(loaded, keys.length, ...keys, ...args.map(asArgument));
    },
    async eval(script, keys, args) {
      const runnable = withoutShebang(script);
      loadedShaByUpstashHash.set(sha1(script), sha1(runnable));
      return client.eval(runnable, keys.length, ...keys, ...args.map(asArgument));
    },
  };
}
