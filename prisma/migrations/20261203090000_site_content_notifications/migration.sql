-- The site's pages are built from the pricing configuration and the CMS pages, read through per-process caches
-- (lib/change-feed.ts). These notifications tell every process the moment either changes, whoever wrote it (the
-- admin CLI, an operator's psql), so a new price or an edited page reaches the site at once. Payload:
-- "<table>:<key>", the key being the column named by the trigger's argument (neither table has an `id`).
CREATE FUNCTION notify_site_content_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
BEGIN
  PERFORM pg_notify('cached_row_changes', TG_TABLE_NAME || ':' || (changed ->> TG_ARGV[0]));
  RETURN NULL;
END
$$;

CREATE TRIGGER pricing_configs_cached_row_change
  AFTER INSERT OR UPDATE OR DELETE ON pricing_configs
  FOR EACH ROW EXECUTE FUNCTION notify_site_content_change('version');

CREATE TRIGGER cms_pages_cached_row_change
  AFTER INSERT OR UPDATE OR DELETE ON cms_pages
  FOR EACH ROW EXECUTE FUNCTION notify_site_content_change('key');
