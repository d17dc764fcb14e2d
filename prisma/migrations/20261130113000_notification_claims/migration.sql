-- Notification emails are claimed before they are sent (lib/notifications/notifications.ts): a pass holds each
-- one until `claimed_until`, so two passes at once never send one twice, and a claim left by a pass that died lapses.
ALTER TABLE "notifications" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
