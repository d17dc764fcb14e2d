// Billers Slice customers may pay (spec 2.10). The public view is id, name and category: bank details and
// contacts are for payments and never leave the platform.
import { clock } from "../clock";
import { db } from "../db";
import { wholeList } from "../wire/pagination";
import { newId } from "../ids";

export async function listAcceptedBillers() {
  const billers = await db().biller.findMany({ where: { accepted: true }, orderBy: [{ category: "asc" }, { name: "asc" }], select: { id: true, name: true, category: true } });
  const data = billers.map((biller) => ({ id: biller.id, object: "biller" as const, name: biller.name, category: biller.category }));
  return wholeList(data, "/public/v1/slice/billers");
}

const SEED_BILLERS = [
  { name: "HM Revenue & Customs", category: "tax", bankSortCode: "083210", bankAccountNumber: "12001039", contactEmail: "payments@hmrc.example" },
  { name: "Northern Power Supply", category: "utilities", bankSortCode: "401122", bankAccountNumber: "55110022", contactEmail: "ar@northernpower.example" },
  { name: "Crown Commercial Insurance", category: "insurance", bankSortCode: "309950", bankAccountNumber: "76543210", contactEmail: "billing@crownins.example" },
  { name: "Metro Business Rates", category: "business_rates", bankSortCode: "209876", bankAccountNumber: "33445566", contactEmail: "rates@metro.example" },
  { name: "Brightline Telecom", category: "telecoms", bankSortCode: "601234", bankAccountNumber: "99887766", contactEmail: "accounts@brightline.example" },
];

/** Creates the demo billers when there are none; returns how many it created. */
export async function seedBillers(): Promise<number> {
  return db().$transaction(async (transaction) => {
    // Two processes starting together must not both seed.
    await transaction.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('seed-billers'))`;
    if ((await transaction.biller.count()) > 0) return 0;
    const now = clock.now();
    await transaction.biller.createMany({ data: SEED_BILLERS.map((biller) => ({ id: newId("biller"), ...biller, createdAt: now })) });
    return SEED_BILLERS.length;
  });
}
