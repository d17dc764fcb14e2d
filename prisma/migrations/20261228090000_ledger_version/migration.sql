-- How many rows each account's ledger holds, counted by the database as each row is inserted, whoever inserts
-- it: a page of the ledger is immutable for as long as this number stands, so the API caches pages against it
-- (lib/accounts/ledger-pages.ts). The ledger's rows are never updated or deleted (the append-only trigger), so
-- the count only grows.
ALTER TABLE "accounts" ADD COLUMN "ledger_version" INTEGER NOT NULL DEFAULT 0;

UPDATE "accounts" SET "ledger_version" = (SELECT count(*) FROM "ledger_transactions" WHERE "account_id" = "accounts"."id");

CREATE FUNCTION count_ledger_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "accounts" SET "ledger_version" = "ledger_version" + 1 WHERE "id" = NEW."account_id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER ledger_transactions_version
  AFTER INSERT ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION count_ledger_posting();
