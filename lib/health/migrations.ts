// Compares the migrations applied to a database with those committed under prisma/migrations.
import { readdirSync, existsSync } from "node:fs";
import path from "node:path";
import type { Database } from "../db";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

export interface MigrationStatus {
  applied: number;
  onDisk: number;
  inSync: boolean;
}

// Read at run time from the deployed tree; the bundler must not trace the filesystem from here.
export function migrationsOnDisk(directory = MIGRATIONS_DIR): string[] {
  return readdirSync(/*turbopackIgnore: true*/ directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(directory, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

async function appliedMigrations(database: Database): Promise<string[]> {
  const table = await database.$queryRaw<Array<{ exists: boolean }>>`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS exists`;
  if (!table[0]?.exists) return [];
  const rows = await database.$queryRaw<Array<{ migration_name: string }>>`
    SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  return rows.map((row) => row.migration_name);
}

export async function readMigrationStatus(database: Database, onDisk: string[] = migrationsOnDisk()): Promise<MigrationStatus> {
  const applied = new Set(await appliedMigrations(database));
  const inSync = applied.size === onDisk.length && onDisk.every((name) => applied.has(name));
  return { applied: applied.size, onDisk: onDisk.length, inSync };
}
