-- Team invitations (docs/dashboard.md, "Team"): an owner invites an address with no sign-in yet; it joins the team
-- when a sign-in user with that address is created. The invitation is also a notification to that one address.
CREATE TABLE "team_invitations" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "ProjectRole" NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "team_invitations_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "team_invitations_project_id_email_key" ON "team_invitations"("project_id", "email");
CREATE INDEX "team_invitations_email_idx" ON "team_invitations"("email");

ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "notifications" ADD COLUMN "recipient_email" TEXT;
