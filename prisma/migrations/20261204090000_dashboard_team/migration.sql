-- The partner dashboard's teams (docs/dashboard.md): a person's role in a project, and the audit log of what was
-- done there (ids only: no secrets, names or emails).
CREATE TYPE "ProjectRole" AS ENUM ('owner', 'developer', 'viewer');

CREATE TABLE "project_members" (
    "project_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" "ProjectRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_id","user_id")
);

CREATE INDEX "project_members_user_id_idx" ON "project_members"("user_id");

ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "sign_in_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "dashboard_audit_entries" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "environment" "Environment",
    "actor_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "object_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_audit_entries_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "dashboard_audit_entries_project_id_created_at_idx" ON "dashboard_audit_entries"("project_id", "created_at");

ALTER TABLE "dashboard_audit_entries" ADD CONSTRAINT "dashboard_audit_entries_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
