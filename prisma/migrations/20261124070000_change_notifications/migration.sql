-- Per-process caches of API keys and project state (lib/change-feed.ts) are invalidated across processes by
-- these notifications, delivered when the writing transaction commits, whatever wrote the row (a service, the
-- admin CLI, an operator's psql). Payload: "<table>:<id>".
CREATE FUNCTION notify_cached_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cached_row_changes', TG_TABLE_NAME || ':' || COALESCE(OLD.id, NEW.id));
  RETURN NULL;
END
$$;

-- last_used_at is left out: it is written as keys are used and says nothing about whether one may be.
CREATE TRIGGER api_keys_cached_row_change
  AFTER UPDATE OF project_id, type, environment, secret_hash, status, expires_at, revoked_at OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_cached_row_change();

CREATE TRIGGER projects_cached_row_change
  AFTER INSERT OR UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION notify_cached_row_change();
