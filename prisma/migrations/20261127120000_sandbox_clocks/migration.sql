-- CreateTable
CREATE TABLE "sandbox_clocks" (
    "project_id" TEXT NOT NULL,
    "offset_days" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sandbox_clocks_pkey" PRIMARY KEY ("project_id")
);

-- AddForeignKey
ALTER TABLE "sandbox_clocks" ADD CONSTRAINT "sandbox_clocks_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A test clock only moves forward.
ALTER TABLE "sandbox_clocks" ADD CONSTRAINT "sandbox_clocks_offset_days_check" CHECK ("offset_days" >= 0);

-- Each process caches its projects' state, the sandbox clock's offset with it (lib/projects/project-state.ts): a
-- change to a clock is announced as a change to its project, so every cache drops it when the advance commits.
CREATE FUNCTION notify_sandbox_clock_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cached_row_changes', 'projects:' || COALESCE(OLD.project_id, NEW.project_id));
  RETURN NULL;
END
$$;

CREATE TRIGGER sandbox_clocks_cached_row_change
  AFTER INSERT OR UPDATE OR DELETE ON sandbox_clocks
  FOR EACH ROW EXECUTE FUNCTION notify_sandbox_clock_change();
