// Times on the dashboard's pages, in UK time, one format throughout.
const dateTime = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" });
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "Europe/London" });
const dateTimeToTheSecond = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: "Europe/London" });

/** A time to the minute, or `never` (by default "Never") when there is none. */
export const when = (time: string | Date | null, never = "Never") => (time ? dateTime.format(new Date(time)) : never);

/** A time to the second, where seconds tell things apart (delivery attempts). */
export const whenToTheSecond = (time: string | Date) => dateTimeToTheSecond.format(new Date(time));

/** A day, where the time of day does not matter (when someone joined the team). */
export const onDay = (time: string | Date) => day.format(new Date(time));

const monthOfYear = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

/** A calendar month in UTC as a payout's period names it (`2026-11`): "November 2026". */
export function monthWords(period: string): string {
  const [year, month] = period.split("-").map(Number);
  return monthOfYear.format(new Date(Date.UTC(year!, month! - 1, 1)));
}
