// A Redis for the tests that can use one: REDIS_URL or, by default, 127.0.0.1:6379, when it answers.
import { Redis } from "ioredis";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** A connected client, or null when no Redis answers within half a second. */
export async function redisAnswers(url = REDIS_URL): Promise<Redis | null> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch {
    client.disconnect();
    return null;
  }
}
