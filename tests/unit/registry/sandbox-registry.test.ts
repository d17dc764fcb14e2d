import { describe, expect, it } from "vitest";
import { freezeClock } from "@/lib/clock";
import { SandboxRegistry, sandboxIncorporationDate } from "@/lib/registry/sandbox-registry";

const registry = new SandboxRegistry();

describe("the sandbox registry's number format", () => {
  it.each([
    ["seven digits", "1234567"],
    ["nine digits", "123456789"],
    ["a lower-case prefix", "sc123456"],
    ["a single letter", "S1234567"],
    ["three letters", "ABC12345"],
    ["a space", "1234 567"],
    ["full-width digits", "１２３４５６７８"],
    ["surrounding whitespace", " 12345678"],
    ["letters after the digits", "123456AB"],
    ["the empty string", ""],
  ])("refuses a number with %s as invalid_format", async (_case, companyNumber) => {
    expect(await registry.lookup(companyNumber)).toEqual({ found: false, reason: "invalid_format" });
  });
});

describe("the sandbox registry's answers", () => {
  it("finds an active private limited company for an eight-digit number", async () => {
    expect(await registry.lookup("12345678")).toEqual({
      found: true,
      company: { companyNumber: "12345678", name: "Sandbox Trading 12345678 Ltd", kind: "private_limited_company", status: "active", incorporatedOn: "1969-07-01" },
    });
  });

  it("treats a Scottish SC number as a private limited company", async () => {
    expect(await registry.lookup("SC123456")).toEqual({
      found: true,
      company: { companyNumber: "SC123456", name: "Sandbox Trading SC123456 Ltd", kind: "private_limited_company", status: "active", incorporatedOn: "1988-01-01" },
    });
  });

  it.each(["OC123456", "SO123456", "NC123456"])("treats %s as an active LLP", async (companyNumber) => {
    expect(await registry.lookup(companyNumber)).toEqual({
      found: true,
      company: { companyNumber, name: `Sandbox Partners ${companyNumber} LLP`, kind: "llp", status: "active", incorporatedOn: "1988-01-01" },
    });
  });

  it("does not find 00000000", async () => {
    expect(await registry.lookup("00000000")).toEqual({ found: false, reason: "company_not_found" });
  });

  it.each(["ST123456", "PT123456"])("refuses %s as not incorporated", async (companyNumber) => {
    expect(await registry.lookup(companyNumber)).toEqual({ found: false, reason: "not_incorporated" });
  });

  it.each(["12349991", "OC129991", "SC009991"])("reports %s as dissolved", async (companyNumber) => {
    expect(await registry.lookup(companyNumber)).toEqual({ found: false, reason: "company_dissolved" });
  });

  it("puts not-incorporated before dissolved, and format before both", async () => {
    expect(await registry.lookup("ST129991")).toEqual({ found: false, reason: "not_incorporated" });
    expect(await registry.lookup("PT009991")).toEqual({ found: false, reason: "not_incorporated" });
    expect(await registry.lookup("st123456")).toEqual({ found: false, reason: "invalid_format" });
    expect(await registry.lookup("1234999")).toEqual({ found: false, reason: "invalid_format" });
  });

  it("finds numbers that only resemble the special ones", async () => {
    expect(await registry.lookup("00000001")).toMatchObject({ found: true, company: { kind: "private_limited_company" } });
    expect(await registry.lookup("12349990")).toMatchObject({ found: true });
    expect(await registry.lookup("12399910")).toMatchObject({ found: true });
    expect(await registry.lookup("SP123456")).toMatchObject({ found: true, company: { kind: "private_limited_company" } });
    expect(await registry.lookup("CO123456")).toMatchObject({ found: true, company: { kind: "private_limited_company" } });
  });

  it("gives the same answer every time, whatever the clock says", async () => {
    freezeClock("2026-01-01T00:00:00.000Z");
    const first = await registry.lookup("12340012");
    freezeClock("2031-07-19T12:00:00.000Z");
    expect(await registry.lookup("12340012")).toEqual(first);
    expect(first).toMatchObject({ company: { incorporatedOn: "2025-01-01" } });
  });
});

describe("sandbox incorporation dates", () => {
  it("count the last three digits as months before 2026-01-01", () => {
    expect(sandboxIncorporationDate("12340000")).toBe("2026-01-01");
    expect(sandboxIncorporationDate("12340001")).toBe("2025-12-01");
    expect(sandboxIncorporationDate("12340011")).toBe("2025-02-01");
    expect(sandboxIncorporationDate("12340012")).toBe("2025-01-01");
    expect(sandboxIncorporationDate("12340013")).toBe("2024-12-01");
    expect(sandboxIncorporationDate("00120050")).toBe("2021-11-01");
    expect(sandboxIncorporationDate("OC120024")).toBe("2024-01-01");
    expect(sandboxIncorporationDate("12349999")).toBe("1942-10-01");
  });

  it("ignore every digit but the last three", () => {
    expect(sandboxIncorporationDate("99990036")).toBe(sandboxIncorporationDate("SC000036"));
  });

  it("are the dates the registry reports", async () => {
    expect(await registry.lookup("12340001")).toMatchObject({ found: true, company: { incorporatedOn: "2025-12-01" } });
    expect(await registry.lookup("NC000050")).toMatchObject({ found: true, company: { incorporatedOn: "2021-11-01" } });
  });

  it("refuse a malformed number", () => {
    expect(() => sandboxIncorporationDate("1234")).toThrow(RangeError);
    expect(() => sandboxIncorporationDate("１２３４５６７８")).toThrow(RangeError);
  });
});
