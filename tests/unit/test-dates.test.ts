// Tests keep to present-day dates. Each test file owns its database (tests/helpers/isolated-database.ts), so no test
// needs to hide its rows from another file's sweeps in a far-future year; a far-future date is one in 2040 or later,
// written as an ISO date (`2099-03-01`, `2099-03-01T09:00:00Z`), as `Date.UTC(2099, …)` or `new Date(2099, …)`, or
// in words (`1 July 2099`).
import { describe, expect, it } from "vitest";
import { readSourceFiles } from "../helpers/source-files";

const FIRST_FAR_FUTURE_YEAR = 2040;

const MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December";
const DATE_LITERALS = [
  /\b(\d{4})-\d{1,2}(?:-\d{1,2})?(?!\d)/g,
  /\b(?:Date\.UTC|new Date)\(\s*(\d{4})\s*,/g,
  new RegExp(`\\b\\d{1,2} (?:${MONTHS}) (\\d{4})\\b`, "g"),
];

/** Far-future dates a test computes rather than chooses, each with its reason. */
const EXPECTED_FAR_FUTURE = [
  { file: "tests/unit/decisions/offer-terms.test.ts", date: "2075-12-31", why: "the last due date of a 600-month schedule that starts in 2026" },
];

/** Every far-future date literal in `text`, as `line: literal`. */
function farFutureDates(text: string): Array<{ line: number; date: string }> {
  return text.split("\n").flatMap((content, index) =>
    DATE_LITERALS.flatMap((pattern) => [...content.matchAll(pattern)])
      .filter((match) => Number(match[1]) >= FIRST_FAR_FUTURE_YEAR)
      .map((match) => ({ line: index + 1, date: match[0] })),
  );
}

describe("dates in tests", () => {
  it("recognises a far-future date in each way it is written, and leaves present-day dates and other numbers alone", () => {
    const text = [
      'const T0 = "2099-03-01T09:00:00.000Z";',
      'dueOn: "2040-01-15",',
      "Date.UTC(2041, 0, 1)",
      "new Date(2100, 0, 1)",
      '"until 2 July 2099 at 10:30"',
      'const now = "2027-03-01T09:00:00.000Z"; // apr_bps: 2400, "2606:4700::1111", "2039-12-31", 1 July 2026',
    ].join("\n");
    expect(farFutureDates(text)).toEqual([
      { line: 1, date: "2099-03-01" },
      { line: 2, date: "2040-01-15" },
      { line: 3, date: "Date.UTC(2041," },
      { line: 4, date: "new Date(2100," },
      { line: 5, date: "2 July 2099" },
    ]);
  });

  it("finds none in tests/ beyond the computed ones listed with their reasons", () => {
    const found = readSourceFiles(["tests"])
      .filter(({ file }) => file !== "tests/unit/test-dates.test.ts")
      .flatMap(({ file, text }) => farFutureDates(text).map(({ line, date }) => ({ file, line, date })))
      .filter(({ file, date }) => !EXPECTED_FAR_FUTURE.some((expected) => expected.file === file && expected.date === date));
    expect(found.map(({ file, line, date }) => `${file}:${line} ${date}`)).toEqual([]);
  });
});
