// End-to-end tests in Debian's Chromium against a production build served by `next start`.
// `npm test` builds first and provides DATABASE_URL (already migrated); see scripts/test-all.ts.
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3111);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: `node_modules/.bin/next start --port ${port} --hostname 127.0.0.1`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: process.env.DATABASE_URL ?? "" },
  },
});
