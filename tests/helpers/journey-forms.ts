// A date of birth as the hosted journey's "About you" form posts it: three fields, Day, Month and Year
// (lib/journey/date-of-birth.ts), from the `YYYY-MM-DD` a test writes.
export function dateOfBirthFields(date: string, prefix = ""): Record<string, string> {
  const [year, month, day] = date.split("-") as [string, string, string];
  const field = `${prefix}date_of_birth`;
  return { [`${field}-day`]: String(Number(day)), [`${field}-month`]: String(Number(month)), [`${field}-year`]: year };
}
