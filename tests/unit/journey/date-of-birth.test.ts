// A date of birth read from the journey's three fields (lib/journey/date-of-birth.ts): the date, or GOV.UK's
// message for what is wrong and the field to fix first, on a fixed day.
import { describe, expect, it } from "vitest";
import { readDateOfBirth, type DateSubject } from "@/lib/journey/date-of-birth";

const NOW = new Date("2032-06-15T12:00:00Z");
const APPLICANT: DateSubject = { name: "Date of birth", asked: "your date of birth", tooYoung: "You must be 18 or over to apply", minimumAgeYears: 18 };
const read = (day: string, month: string, year: string, kept?: string) =>
  readDateOfBirth({ "date_of_birth-day": day, "date_of_birth-month": month, "date_of_birth-year": year }, "date_of_birth", APPLICANT, NOW, kept);

describe("a date of birth from Day, Month and Year", () => {
  it("reads one- and two-digit days and months into YYYY-MM-DD", () => {
    expect(read("27", "3", "1980")).toEqual({ date: "1980-03-27" });
    expect(read(" 07 ", "11", "1975")).toEqual({ date: "1975-11-07" });
  });

  it.each([
    ["nothing", "", "", "", "date_of_birth-day", "Enter your date of birth"],
    ["no month", "27", "", "1980", "date_of_birth-month", "Date of birth must include a month"],
    ["no day or month", "", "", "1980", "date_of_birth-day", "Date of birth must include a day and month"],
    ["words", "twenty", "3", "1980", "date_of_birth-day", "Date of birth must be a real date"],
    ["a day that is not in the calendar", "30", "2", "1980", "date_of_birth-day", "Date of birth must be a real date"],
    ["a month 13", "1", "13", "1980", "date_of_birth-day", "Date of birth must be a real date"],
    ["a two-digit year", "27", "3", "80", "date_of_birth-year", "Date of birth must include a year with 4 numbers, such as 1980"],
    ["a day to come", "16", "6", "2032", "date_of_birth-day", "Date of birth must be in the past"],
    ["a 17-year-old", "16", "6", "2014", "date_of_birth-day", "You must be 18 or over to apply"],
    ["a year 130 years ago", "1", "1", "1902", "date_of_birth-year", "Date of birth must be a real date: check the year"],
  ])("refuses %s with GOV.UK's message, on the field to fix", (_case, day, month, year, field, message) => {
    expect(read(day, month, year)).toEqual({ field, message });
  });

  it("takes an 18th birthday today as old enough", () => {
    expect(read("15", "6", "2014")).toEqual({ date: "2014-06-15" });
  });

  it("keeps the date given before when all three fields are left empty, and reads a new one when typed", () => {
    expect(read("", "", "", "1980-03-27")).toEqual({ date: "1980-03-27" });
    expect(read("1", "2", "1981", "1980-03-27")).toEqual({ date: "1981-02-01" });
    expect(read("1", "", "", "1980-03-27")).toEqual({ field: "date_of_birth-month", message: "Date of birth must include a month and year" });
  });
});
