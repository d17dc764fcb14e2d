import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/database/**/*.test.ts", "tests/api/**/*.test.ts", "tests/cli/**/*.test.ts", "tests/drills/**/*.test.ts"],
    globalSetup: ["tests/setup/global-database.ts", "tests/setup/receiver-tls.ts"],
    setupFiles: ["tests/setup/each-file.ts"],
    env: { LOG_LEVEL: "silent", NEXT_TELEMETRY_DISABLED: "1" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
