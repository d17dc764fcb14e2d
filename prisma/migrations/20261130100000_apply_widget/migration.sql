-- The apply.js widget (docs/apply-js.md): the origin of the page that started an application, which alone may
-- frame its journey; and the demo project's sandbox publishable key, which the demo page publishes.
ALTER TABLE "applications" ADD COLUMN "embedding_origin" TEXT;

ALTER TABLE "projects" ADD COLUMN "demo_publishable_key" TEXT;
