// Dates of birth for identity checks (docs/identity.md): a real calendar date, not in the future, a person at
// least 16 and at most 120, counted by the UK calendar.
import { describe, expect, it } from "vitest";
import { dateOfBirthProblem } from "@/lib/identity/schemas";

const reasonOn = (value: string, now: string) => dateOfBirthProblem(value, new Date(now))?.reason ?? null;

describe("dateOfBirthProblem", () => {
  it.each([
    ["1980-04-23", null],
    ["1980-4-23", "invalid_format"],
    ["80-04-23", "invalid_format"],
    ["1980-04-23T00:00:00Z", "invalid_format"],
    ["", "invalid_format"],
    ["1980-02-30", "invalid_date"],
    ["1981-02-29", "invalid_date"],
    ["1980-00-10", "invalid_date"],
    ["0000-01-01", "invalid_date"],
  ])("%j is %s", (value, reason) => {
    expect(reasonOn(value, "2026-11-25T12:00:00Z")).toBe(reason);
  });

  it("accepts 29 February of a leap year", () => {
    expect(reasonOn("1980-02-29", "2026-11-25T12:00:00Z")).toBeNull();
  });

  it("refuses tomorrow and takes today, by the UK date: at 23:30 UTC in summer it is already tomorrow in London", () => {
    expect(reasonOn("2026-06-16", "2026-06-15T22:30:00Z")).toBe("in_future");
    expect(reasonOn("2026-06-16", "2026-06-15T23:30:00Z")).toBe("too_young");
    expect(reasonOn("2026-06-15", "2026-06-15T12:00:00Z")).toBe("too_young");
  });

  it("takes a person from their 16th birthday", () => {
    expect(reasonOn("2010-11-25", "2026-11-25T00:00:00Z")).toBeNull();
    expect(reasonOn("2010-11-26", "2026-11-25T23:59:59Z")).toBe("too_young");
  });

  it("counts a 29 February birthday as reached on 1 March in a common year", () => {
    expect(reasonOn("2008-02-29", "2024-02-28T12:00:00Z")).toBe("too_young");
    expect(reasonOn("2008-02-29", "2024-02-29T12:00:00Z")).toBeNull();
    expect(reasonOn("2012-02-29", "2028-02-28T12:00:00Z")).toBe("too_young");
    expect(reasonOn("2012-02-29", "2028-02-29T12:00:00Z")).toBeNull();
    expect(reasonOn("2011-02-28", "2027-02-28T12:00:00Z")).toBeNull();
    expect(reasonOn("2008-02-29", "2025-02-28T12:00:00Z")).toBeNull();
  });

  it("refuses anyone 120 or older as a mistyped year", () => {
    expect(reasonOn("1906-11-26", "2026-11-25T12:00:00Z")).toBeNull();
    expect(reasonOn("1906-11-25", "2026-11-25T12:00:00Z")).toBe("too_old");
  });
});
