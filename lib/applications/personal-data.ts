// Retention of an application's personal data (docs/reliability.md, "Personal data and capabilities"): the
// applicant's email and first name, the people of its identity checks (names, dates of birth), the hosted
// journey's answers and refused forms, and the name that signed the offer. Kept while the application is open;
// erased 90 days after it ends without funding (declined, expired, withdrawn) and, for a funded one, 5 years after
// its account closes (UK anti-money-laundering record keeping: five years from the end of the business
// relationship, Money Laundering Regulations 2017, reg. 40). Erasing clears those fields and nothing else: the
// application, its decision and its checks stay, each check with its status and every person's role and result,
// so decisions and their audit still read. Times are real time (`ended_at`), never a sandbox's test clock.
import { clock, DAY_MS } from "../clock";
import { db } from "../db";
import { Prisma } from "../generated/prisma/client";

export const PERSONAL_DATA_RETENTION = { unfundedDays: 90, fundedYears: 5 } as const;

const BATCH_SIZE = 200;

/** The applications whose personal data is due for erasure at `now`, oldest first. */
function findDue(now: Date) {
  const unfundedCutoff = new Date(now.getTime() - PERSONAL_DATA_RETENTION.unfundedDays * DAY_MS);
  const fundedCutoff = new Date(now);
  fundedCutoff.setUTCFullYear(fundedCutoff.getUTCFullYear() - PERSONAL_DATA_RETENTION.fundedYears);
  return db().application.findMany({
    where: {
      personalDataErasedAt: null,
      OR: [
        { status: "funded", endedAt: { lte: fundedCutoff } },
        { status: { not: "funded" }, endedAt: { lte: unfundedCutoff } },
      ],
    },
    orderBy: { endedAt: "asc" },
    select: { id: true },
    take: BATCH_SIZE,
  });
}

/** Erases the personal data of every application past its retention; returns how many applications. */
export async function eraseDuePersonalData(): Promise<number> {
  const now = clock.now();
  let erased = 0;
  for (;;) {
    const ids = (await findDue(now)).map((application) => application.id);
    if (ids.length === 0) return erased;
    await db().$transaction(async (transaction) => {
      // Each person becomes their role and result, in order.
      await transaction.$executeRaw`UPDATE identity_checks SET people = COALESCE((
          SELECT jsonb_agg(jsonb_build_object('role', person -> 'role', 'result', person -> 'result') ORDER BY position)
          FROM jsonb_array_elements(people) WITH ORDINALITY AS checked (person, position)), '[]'::jsonb)
        WHERE application_id = ANY(${ids})`;
      await transaction.applicationJourney.updateMany({ where: { applicationId: { in: ids } }, data: { people: [], refusal: Prisma.DbNull } });
      await transaction.decision.updateMany({ where: { applicationId: { in: ids } }, data: { signatoryName: null } });
      await transaction.application.updateMany({ where: { id: { in: ids } }, data: { applicantEmail: null, applicantFirstName: null, personalDataErasedAt: now } });
    });
    erased += ids.length;
    if (ids.length < BATCH_SIZE) return erased;
  }
}
