// Runs before each unit test file. Unit tests are pure logic: they get no database of their own, and one that
// reaches for a database fails at once on a name that exists nowhere instead of touching another's. The clock is
// restored after each test, as for every file.
import { afterEach } from "vitest";
import { restoreClock } from "@/lib/clock";

process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/unit_tests_have_no_database";
// Vitest exports Vite's BASE_URL ("/") into process.env; ours is an origin, so leave it to its default.
if (process.env.BASE_URL === "/") delete process.env.BASE_URL;

afterEach(() => {
  restoreClock();
});
