import path from "node:path";
import { defineConfig } from "vitest/config";

// Three projects, all run by `vitest run` (and so by `npm test`), each selectable with `--project`:
// - unit: pure logic, no database; files share their workers' module cache (no isolation), which spares a
//   process start and a fresh import of the same modules per file.
// - integration: the database, API and CLI tests, each file in a process of its own on a database of its own.
// - drills: the outage drills (a restarted PostgreSQL, a Redis that goes away, a killed backend), isolated likewise,
//   run last and one at a time: some measure latency, which other files running alongside would disturb. `npm test`
//   runs them once its production build is done (the fleet drill serves it); `vitest run` alone runs them last.
// Unit and integration files run three at a time whatever the machine (vitest's default is one fewer than its
// CPUs, so one at a time on two): a file spends most of its time waiting on PostgreSQL, sockets and child
// processes, and each file owns its database, so files run side by side without meeting.
const PARALLEL_FILES = 3;
const withDatabase = {
  globalSetup: ["tests/setup/global-database.ts", "tests/setup/receiver-tls.ts"],
  setupFiles: ["tests/setup/each-file.ts"],
};

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    env: { LOG_LEVEL: "silent", NEXT_TELEMETRY_DISABLED: "1" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          globalSetup: ["tests/setup/receiver-tls.ts"],
          setupFiles: ["tests/setup/each-unit-file.ts"],
          isolate: false,
          maxWorkers: PARALLEL_FILES,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/database/**/*.test.ts", "tests/api/**/*.test.ts", "tests/cli/**/*.test.ts"],
          maxWorkers: PARALLEL_FILES,
          ...withDatabase,
        },
      },
      {
        extends: true,
        test: { name: "drills", include: ["tests/drills/**/*.test.ts"], maxWorkers: 1, sequence: { groupOrder: 1 }, ...withDatabase },
      },
    ],
  },
});
