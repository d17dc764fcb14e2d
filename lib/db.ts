// The one Prisma client, over one pg pool per process (driver adapter; no query-engine binary).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { config } from "./env";

export type Database = PrismaClient;

function createDatabase(url: string): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

// Next's dev server re-evaluates modules on change; keep one client per process across reloads.
const holder = globalThis as unknown as { __lendingDb?: PrismaClient };

export function db(): PrismaClient {
  if (!holder.__lendingDb) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm run dev` or `npm start`, which provide one");
    holder.__lendingDb = createDatabase(url);
  }
  return holder.__lendingDb;
}

export async function disconnectDatabase(): Promise<void> {
  await holder.__lendingDb?.$disconnect();
  holder.__lendingDb = undefined;
}
