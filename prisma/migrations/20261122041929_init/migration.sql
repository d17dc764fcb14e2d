-- CreateEnum
CREATE TYPE "ProjectTier" AS ENUM ('build', 'launch', 'scale', 'platform');

-- CreateEnum
CREATE TYPE "ProjectStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('sandbox', 'live');

-- CreateEnum
CREATE TYPE "ApiKeyType" AS ENUM ('secret', 'publishable');

-- CreateEnum
CREATE TYPE "ApiKeyStatus" AS ENUM ('active', 'revoked');

-- CreateTable
CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tier" "ProjectTier" NOT NULL DEFAULT 'build',
    "status" "ProjectStatus" NOT NULL DEFAULT 'active',
    "client_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "type" "ApiKeyType" NOT NULL,
    "environment" "Environment" NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "status" "ApiKeyStatus" NOT NULL DEFAULT 'active',
    "expires_at" TIMESTAMPTZ(3),
    "predecessor_id" TEXT,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "projects_client_id_key" ON "projects"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_predecessor_id_key" ON "api_keys"("predecessor_id");

-- CreateIndex
CREATE INDEX "api_keys_project_id_id_idx" ON "api_keys"("project_id", "id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_predecessor_id_fkey" FOREIGN KEY ("predecessor_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
