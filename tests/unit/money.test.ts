import { describe, expect, it } from "vitest";
import { formatPounds, formatWholePounds } from "@/lib/money";

describe("formatPounds", () => {
  it.each([
    [0, "£0.00"],
    [5, "£0.05"],
    [99, "£0.99"],
    [100, "£1.00"],
    [123_456, "£1,234.56"],
    [1_000_000, "£10,000.00"],
    [25_000_000, "£250,000.00"],
    [123_456_789_01, "£123,456,789.01"],
    [-1_000_000, "-£10,000.00"],
    [-7, "-£0.07"],
  ])("writes %i pence as %s", (pence, written) => {
    expect(formatPounds(pence)).toBe(written);
  });

  it("writes what the currency formatter wrote for every amount in pence up to £10,000, without floating point", () => {
    const currency = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
    for (let pence = -1_000_000; pence <= 1_000_000; pence += 37) expect(formatPounds(pence)).toBe(currency.format(pence / 100));
  });
});

describe("formatWholePounds", () => {
  it.each([
    [100_000, "£1,000"],
    [25_000_000, "£250,000"],
    [199, "£1"],
    [0, "£0"],
    [-500_000, "-£5,000"],
  ])("writes %i pence as %s", (pence, written) => {
    expect(formatWholePounds(pence)).toBe(written);
  });
});
