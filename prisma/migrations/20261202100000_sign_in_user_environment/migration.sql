-- The environment whose accounts a person signed in through the sign-in provider reads (docs/sign-in.md).
ALTER TABLE "sign_in_users" ADD COLUMN "environment" "Environment" NOT NULL DEFAULT 'live';
