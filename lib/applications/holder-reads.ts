// An account holder's applications (docs/sign-in.md, "People reading their accounts"): their company's, in their
// environment, whichever partner's project made them. What the borrower area shows of each: no applicant's
// personal data, only what the company applied for and where it stands.
import { db } from "../db";
import { accountHolderWhere, type AccountHolder } from "../tenant";

export interface HolderApplication {
  id: string;
  status: string;
  product: string;
  amount_pence: number;
  term_months: number;
  created_at: string;
}

/** The holder's company's latest applications, newest first. */
export async function listHolderApplications({ holder, limit }: { holder: AccountHolder; limit: number }): Promise<HolderApplication[]> {
  const rows = await db().application.findMany({
    where: accountHolderWhere(holder),
    orderBy: { id: "desc" },
    take: limit,
    select: { id: true, status: true, product: true, amountPence: true, termMonths: true, createdAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    product: row.product,
    amount_pence: row.amountPence,
    term_months: row.termMonths,
    created_at: row.createdAt.toISOString(),
  }));
}
