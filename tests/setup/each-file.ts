// Runs before each test file: points the app's modules at a database of the file's own, cloned from the run's
// migrated template, and restores the clock.
import { afterEach } from "vitest";
import { restoreClock } from "@/lib/clock";
import { cloneTemplate } from "../helpers/isolated-database";

process.env.DATABASE_URL = await cloneTemplate();
// Vitest exports Vite's BASE_URL ("/") into process.env; ours is an origin, so leave it to its default.
if (process.env.BASE_URL === "/") delete process.env.BASE_URL;
process.env.DEMO_CREDENTIALS_FILE ??= ".data/test-demo-credentials.json";
// `cli listen` run by tests keeps its signing secrets apart from the developer's own.
process.env.LISTEN_SECRETS_FILE ??= ".data/test-listen-secrets.json";

afterEach(() => {
  restoreClock();
});
