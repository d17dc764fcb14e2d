// Dashboard pages show times in UK time (Europe/London, GMT or BST as the date has it); a time typed into a form
// (an <input type="datetime-local">, which carries no zone) is read the same way.
const UK = "Europe/London";

const parts = new Intl.DateTimeFormat("en-GB", { timeZone: UK, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

function ukWallClock(instant: Date): Record<"year" | "month" | "day" | "hour" | "minute" | "second", number> {
  const read = Object.fromEntries(parts.formatToParts(instant).map((part) => [part.type, part.value]));
  return { year: +read.year!, month: +read.month!, day: +read.day!, hour: +read.hour!, minute: +read.minute!, second: +read.second! };
}

/** The instant as an <input type="datetime-local"> value in UK time: `2026-11-27T17:40`. */
export function toUkDateTimeInput(instant: Date): string {
  const { year, month, day, hour, minute } = ukWallClock(instant);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}`;
}

/** A datetime-local value (`YYYY-MM-DDTHH:MM`, seconds optional) read as UK time, or null if it is not one. */
export function fromUkDateTimeInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  // The zone's offset at that moment (0 in winter, an hour in summer), found by reading the instant back in UK time.
  const wall = ukWallClock(check);
  const offset = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - asUtc;
  return new Date(asUtc - offset);
}
