// Runs before each test file: points the app's modules at the run's database, and restores the clock.
import { afterEach, inject } from "vitest";
import { restoreClock } from "@/lib/clock";

process.env.DATABASE_URL = inject("databaseUrl");
// Vitest exports Vite's BASE_URL ("/") into process.env; ours is an origin, so leave it to its default.
if (process.env.BASE_URL === "/") delete process.env.BASE_URL;
process.env.DEMO_CREDENTIALS_FILE ??= ".data/test-demo-credentials.json";
// `cli listen` run by tests keeps its signing secrets apart from the developer's own.
process.env.LISTEN_SECRETS_FILE ??= ".data/test-listen-secrets.json";

afterEach(() => {
  restoreClock();
});
