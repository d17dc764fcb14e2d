-- Payment links (docs/payments.md): the payer's page token, its form token, expiry, return address and the
-- partner's metadata, on the payment itself. Other payment types leave them null (metadata empty).
ALTER TABLE "payments" ADD COLUMN "link_token" TEXT,
ADD COLUMN "form_token" TEXT,
ADD COLUMN "expires_at" TIMESTAMPTZ(3),
ADD COLUMN "redirect_uri" TEXT,
ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';

-- CreateIndex
CREATE UNIQUE INDEX "payments_link_token_key" ON "payments"("link_token");

-- A forbearance arrangement agreed until a date (the CLI's `account forbear --until`) ends on that day.
ALTER TABLE "accounts" ADD COLUMN "forborne_until" TEXT;
