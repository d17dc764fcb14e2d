-- Open event streams (GET /partner/v1/events/stream, sandbox only) wake when their project records a sandbox
-- event, through the change feed every app process already listens on (lib/change-feed.ts), instead of each
-- stream polling the table. Payload: "events:<project_id>:sandbox"; PostgreSQL delivers identical
-- notifications of one transaction once. Live events notify nobody: no stream reads them.
CREATE FUNCTION notify_sandbox_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cached_row_changes', 'events:' || NEW.project_id || ':sandbox');
  RETURN NULL;
END
$$;

CREATE TRIGGER events_sandbox_notification
  AFTER INSERT ON events
  FOR EACH ROW WHEN (NEW.environment = 'sandbox' AND NEW.project_id IS NOT NULL)
  EXECUTE FUNCTION notify_sandbox_event();
