// Calendar dates for servicing, as `YYYY-MM-DD` strings in UTC: an account's days are whole days, so its
// arithmetic never meets a time zone or a daylight-saving hour.
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant. */
export function utcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function parse(value: string): { year: number; month: number; day: number } {
  const match = DATE_PATTERN.exec(value);
  if (!match) throw new RangeError(`Expected a date as YYYY-MM-DD; got ${JSON.stringify(value)}.`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `months` calendar months after `anchor`, on the anchor's day of the month, or the month's last day when it is
 * shorter (31 January + 1 month = 28 or 29 February). Always counted from the anchor, never from the previous
 * (possibly clamped) date, so an account opened on the 31st is due on the 31st of every month that has one.
 */
export function addMonths(anchor: string, months: number): string {
  const { year, month, day } = parse(anchor);
  const monthIndex = month - 1 + months;
  const targetYear = year + Math.floor(monthIndex / 12);
  const targetMonth = (((monthIndex % 12) + 12) % 12) + 1;
  const targetDay = Math.min(day, daysInMonth(targetYear, targetMonth));
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth).padStart(2, "0")}-${String(targetDay).padStart(2, "0")}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = parse(from);
  const b = parse(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

/** The start of a calendar day, as an instant. */
export function startOfDay(date: string): Date {
  const { year, month, day } = parse(date);
  return new Date(Date.UTC(year, month - 1, day));
}
