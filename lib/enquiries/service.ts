// Public enquiries, leads and complaints (spec 4.8). The row keeps what the visitor sent, email included; the
// `enquiry.created` event (a platform event: no project, never delivered to partners) carries only the
// enquiry object, written in the same transaction so neither exists without the other. What the visitor sent is
// personal data kept no longer than it is needed to answer: 90 days, then the hourly maintenance deletes it.
import { clock } from "../clock";
import { db, inTransaction, type DatabaseClient } from "../db";
import { recordEvents } from "../events/events";
import { newId } from "../ids";
import { DEFAULT_DEPARTMENTS, type CreateEnquiryBody } from "./schemas";
import { serializeEnquiry } from "./serialize";

/** How long an enquiry is kept after it was sent (docs/public-api.md). */
export const ENQUIRY_RETENTION_MS = 90 * 24 * 3_600_000;

export async function createEnquiry(options: { input: CreateEnquiryBody; transaction?: DatabaseClient }) {
  const { input, transaction: database = db() } = options;
  const now = clock.now();
  return inTransaction(database, async (transaction) => {
    const enquiry = await transaction.enquiry.create({
      data: {
        id: newId("enquiry"),
        form: input.form,
        dept: input.dept ?? DEFAULT_DEPARTMENTS[input.form],
        email: input.email,
        name: input.name ?? null,
        message: input.message ?? null,
        fields: input.fields ?? {},
        createdAt: now,
      },
    });
    const object = serializeEnquiry(enquiry);
    await recordEvents(transaction, [{ projectId: null, environment: "live", type: "enquiry.created", object, createdAt: now }]);
    return object;
  });
}

/** Deletes enquiries sent more than 90 days ago; returns how many. */
export async function pruneExpiredEnquiries(): Promise<number> {
  const { count } = await db().enquiry.deleteMany({ where: { createdAt: { lt: new Date(clock.now().getTime() - ENQUIRY_RETENTION_MS) } } });
  return count;
}
