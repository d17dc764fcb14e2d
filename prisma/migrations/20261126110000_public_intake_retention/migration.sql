-- The hourly maintenance deletes enquiries 90 days after they were sent and support sessions 30 days after
-- their last message (lib/jobs/maintenance.ts); these indexes keep those deletes from reading whole tables.

-- CreateIndex
CREATE INDEX "enquiries_created_at_idx" ON "enquiries"("created_at");

-- CreateIndex
CREATE INDEX "support_sessions_last_message_at_idx" ON "support_sessions"("last_message_at");
