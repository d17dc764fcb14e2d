-- A test clock's advance runs in short transactions, a day and a batch of rows at a time (lib/sandbox-clock):
-- the clock records where the running advance goes and the lease of the process running it, so readers see it
-- `advancing`, a second advance is refused, and an advance whose process died is resumed.
ALTER TABLE "sandbox_clocks" ADD COLUMN "target_offset_days" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "sandbox_clocks" ADD COLUMN "advance_lease_until" TIMESTAMPTZ(3);

UPDATE "sandbox_clocks" SET "target_offset_days" = "offset_days";

-- An advance only moves the clock forward, and never past where it was sent.
ALTER TABLE "sandbox_clocks" ADD CONSTRAINT "sandbox_clocks_target_offset_days_check" CHECK ("target_offset_days" >= "offset_days");

-- Only a change of the offset changes what the project's cached state holds: renewing an advance's lease after
-- each batch must not empty every process's cache of the project.
DROP TRIGGER "sandbox_clocks_cached_row_change" ON "sandbox_clocks";

CREATE TRIGGER "sandbox_clocks_cached_row_change"
  AFTER INSERT OR DELETE ON "sandbox_clocks"
  FOR EACH ROW EXECUTE FUNCTION notify_sandbox_clock_change();

CREATE TRIGGER "sandbox_clocks_cached_offset_change"
  AFTER UPDATE OF "offset_days" ON "sandbox_clocks"
  FOR EACH ROW WHEN (OLD."offset_days" IS DISTINCT FROM NEW."offset_days") EXECUTE FUNCTION notify_sandbox_clock_change();
