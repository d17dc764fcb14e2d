// A fresh, migrated database of its own for a test file that changes platform-wide state (such as the token
// signing key), so files running alongside it are unaffected. Call before anything touches the database.
import { applyMigrations, recreateDatabase } from "../../scripts/database";

export async function useIsolatedDatabase(name: string): Promise<void> {
  const shared = new URL(process.env.DATABASE_URL!);
  const serverUrl = `${shared.protocol}//${shared.username ? `${shared.username}${shared.password ? `:${shared.password}` : ""}@` : ""}${shared.host}`;
  const database = `${shared.pathname.slice(1)}_${name}`;
  await recreateDatabase(serverUrl, database);
  const url = `${serverUrl}/${database}`;
  await applyMigrations(url);
  process.env.DATABASE_URL = url;
}
