-- AlterTable
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET DATA TYPE JSON;
