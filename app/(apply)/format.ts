// How the hosted pages (the journey, the payment page) write time: instants in UK time, which is what a UK
// company's director reads. Money is written by lib/money.ts, and for a form's field by `formatAmountForInput`.

const UK_TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/London" });

export function formatUkTime(instant: Date): string {
  return `${UK_TIME.format(instant)} UK time`;
}

const UK_SHORT_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A calendar date (YYYY-MM-DD) as a UK reader writes it in a table: 25 Dec 2026. */
export function formatShortDate(date: string): string {
  return UK_SHORT_DATE.format(new Date(`${date}T00:00:00Z`));
}

const GROUPED = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 0 });

/**
 * Money as an applicant would type it into a form, without the £ the field shows beside it: `20,000`, and the
 * pence only when there are some, `1,000.50`. The journey's forms read back exactly what this writes.
 */
export function formatAmountForInput(pence: number): string {
  const pounds = GROUPED.format(Math.floor(pence / 100));
  return pence % 100 === 0 ? pounds : `${pounds}.${String(pence % 100).padStart(2, "0")}`;
}

/**
 * The reference an applicant keeps: the partner's own `reference` for the application when it gave one, otherwise
 * a short one made for people from the end of the application's id (`7Q2M-K9XD`), which support can search by.
 */
export function applicantReference(application: { id: string; reference: string | null }): string {
  if (application.reference) return application.reference;
  const tail = application.id.slice(-8).toUpperCase();
  return `${tail.slice(0, 4)}-${tail.slice(4)}`;
}
