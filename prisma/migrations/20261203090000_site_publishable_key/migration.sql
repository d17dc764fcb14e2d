-- The platform's own project (the site's Apply page, docs/apply-directly.md): its live publishable key, kept in the
-- clear like the demo's (publishable keys are safe in browsers). Set on that one project; starts with it are
-- accepted only from the site's origin.
ALTER TABLE "projects" ADD COLUMN "site_publishable_key" TEXT;
CREATE UNIQUE INDEX "projects_site_publishable_key_key" ON "projects"("site_publishable_key");
