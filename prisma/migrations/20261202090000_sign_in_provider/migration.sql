-- The sign-in provider (spec 4.10, docs/sign-in.md): its users, its relying parties, what oidc-provider keeps
-- between requests, and its keys.
CREATE TABLE "sign_in_users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "given_name" TEXT NOT NULL,
    "family_name" TEXT NOT NULL,
    "company_number" TEXT,
    "company_name" TEXT,
    "company_role" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sign_in_users_email_lower_case" CHECK ("email" = lower("email"))
);
CREATE UNIQUE INDEX "sign_in_users_email_key" ON "sign_in_users"("email");

CREATE TABLE "oidc_clients" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secret_hash" TEXT,
    "redirect_uris" TEXT[],
    "post_logout_redirect_uris" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "public" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oidc_clients_pkey" PRIMARY KEY ("id"),
    -- A confidential client authenticates with its secret; a public one has none.
    CONSTRAINT "oidc_clients_secret_unless_public" CHECK (("public" AND "secret_hash" IS NULL) OR (NOT "public" AND "secret_hash" IS NOT NULL))
);

CREATE TABLE "oidc_artifacts" (
    "kind" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    CONSTRAINT "oidc_artifacts_pkey" PRIMARY KEY ("kind", "id")
);
CREATE INDEX "oidc_artifacts_grant_id_idx" ON "oidc_artifacts"("grant_id");
CREATE INDEX "oidc_artifacts_uid_idx" ON "oidc_artifacts"("uid");
CREATE INDEX "oidc_artifacts_expires_at_idx" ON "oidc_artifacts"("expires_at");

CREATE TABLE "oidc_keys" (
    "purpose" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "private_jwk" JSONB,
    "sealed_private_jwk" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oidc_keys_pkey" PRIMARY KEY ("purpose"),
    CONSTRAINT "oidc_keys_private_part" CHECK ("private_jwk" IS NOT NULL OR "sealed_private_jwk" IS NOT NULL)
);
