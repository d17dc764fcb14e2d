// `npm run db:migrate`: apply committed migrations to DATABASE_URL (or to the embedded database when unset).
import { applyMigrations, DEV_DATABASE, resolveDatabase } from "./database";
import { parseConfig } from "../lib/env";

const settings = parseConfig(process.env);
const database = await resolveDatabase(DEV_DATABASE.name, {
  dataDirName: DEV_DATABASE.dataDirName,
  port: settings.EMBEDDED_POSTGRES_PORT,
  log: (line) => console.log(line),
});
await applyMigrations(database.url);
console.log("Migrations applied.");
await database.embedded?.stop();
