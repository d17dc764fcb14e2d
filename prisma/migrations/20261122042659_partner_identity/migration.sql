-- CreateEnum
CREATE TYPE "SigningKeyStatus" AS ENUM ('active', 'retired');

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "internal_audience" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "live_tokens_not_before" TIMESTAMPTZ(3),
ADD COLUMN     "sandbox_tokens_not_before" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "oauth_signing_keys" (
    "id" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_jwk" JSONB NOT NULL,
    "status" "SigningKeyStatus" NOT NULL DEFAULT 'active',
    "active_slot" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_signing_keys_active_slot_key" ON "oauth_signing_keys"("active_slot");
