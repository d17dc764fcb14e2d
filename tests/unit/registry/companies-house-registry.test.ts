import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CompaniesHouseRegistry, type Fetch } from "@/lib/registry/companies-house-registry";
import { RegistryUnavailableError } from "@/lib/registry/errors";

const API_KEY = "ch_test_key_0001";
/** base64("ch_test_key_0001:"), worked out by hand so the test does not repeat the implementation. */
const EXPECTED_AUTHORIZATION = "Basic Y2hfdGVzdF9rZXlfMDAwMTo=";

function recorded(name: string): string {
  return readFileSync(new URL(`./fixtures/companies-house/${name}.json`, import.meta.url), "utf8");
}

interface RecordedRequest {
  url: string;
  init: RequestInit;
}

/** A fetch that answers every request with one recorded response and remembers what it was asked. */
function replaying(body: string, status = 200): { fetch: Fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    requests.push({ url, init });
    return new Response(body, { status, headers: { "Content-Type": "application/json" } });
  };
  return { fetch, requests };
}

function registryAnswering(body: string, status = 200) {
  const { fetch, requests } = replaying(body, status);
  return { registry: new CompaniesHouseRegistry({ apiKey: API_KEY, fetch }), requests };
}

function withProfileFields(fields: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(recorded("active-ltd")), ...fields });
}

describe("Companies House lookups", () => {
  it("finds an active limited company", async () => {
    const { registry } = registryAnswering(recorded("active-ltd"));
    expect(await registry.lookup("12345678")).toEqual({
      found: true,
      company: { companyNumber: "12345678", name: "HARBOUR LANE BAKERY LTD", kind: "private_limited_company", status: "active", incorporatedOn: "2019-06-15" },
    });
  });

  it("finds an active LLP", async () => {
    const { registry } = registryAnswering(recorded("active-llp"));
    expect(await registry.lookup("OC412345")).toEqual({
      found: true,
      company: { companyNumber: "OC412345", name: "ASHDOWN & REEVE ARCHITECTS LLP", kind: "llp", status: "active", incorporatedOn: "2016-09-03" },
    });
  });

  it.each(["private-limited-guarant-nsc", "private-limited-guarant-nsc-limited-exemption", "plc"])(
    "counts a company of type %s as a private limited company",
    async (type) => {
      const { registry } = registryAnswering(withProfileFields({ type }));
      expect(await registry.lookup("12345678")).toMatchObject({ found: true, company: { kind: "private_limited_company" } });
    },
  );

  it("reports a dissolved company as dissolved", async () => {
    const { registry } = registryAnswering(recorded("dissolved-ltd"));
    expect(await registry.lookup("10987654")).toEqual({ found: false, reason: "company_dissolved" });
  });

  it.each(["liquidation", "administration", "receivership", "converted-closed", "insolvency-proceedings"])(
    "reports a company in status %s as dissolved",
    async (company_status) => {
      const { registry } = registryAnswering(withProfileFields({ company_status }));
      expect(await registry.lookup("12345678")).toEqual({ found: false, reason: "company_dissolved" });
    },
  );

  it("refuses a limited partnership as not incorporated", async () => {
    const { registry } = registryAnswering(recorded("limited-partnership"));
    expect(await registry.lookup("LP021234")).toEqual({ found: false, reason: "not_incorporated" });
  });

  it.each(["scottish-partnership", "other", "private-unlimited", "oversea-company", "royal-charter"])(
    "refuses a body of type %s as not incorporated",
    async (type) => {
      const { registry } = registryAnswering(withProfileFields({ type }));
      expect(await registry.lookup("12345678")).toEqual({ found: false, reason: "not_incorporated" });
    },
  );

  it("refuses a dissolved partnership as not incorporated, as the sandbox does", async () => {
    const { registry } = registryAnswering(withProfileFields({ type: "scottish-partnership", company_status: "dissolved" }));
    expect(await registry.lookup("SL012345")).toEqual({ found: false, reason: "not_incorporated" });
  });

  it("reports a 404 as not found", async () => {
    const { registry } = registryAnswering(recorded("not-found"), 404);
    expect(await registry.lookup("87654321")).toEqual({ found: false, reason: "company_not_found" });
  });
});

describe("Companies House requests", () => {
  it("ask for the company profile with the API key as the Basic user name", async () => {
    const { registry, requests } = registryAnswering(recorded("active-ltd"));
    await registry.lookup("12345678");
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.url).toBe("https://api.company-information.service.gov.uk/company/12345678");
    expect(new Headers(request?.init.headers).get("authorization")).toBe(EXPECTED_AUTHORIZATION);
    expect(request?.init.method ?? "GET").toBe("GET");
    expect(request?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it("go to a configured base URL, with or without a trailing slash", async () => {
    const { fetch, requests } = replaying(recorded("active-llp"));
    await new CompaniesHouseRegistry({ apiKey: API_KEY, fetch, baseUrl: "http://registry.test/ch/" }).lookup("OC412345");
    await new CompaniesHouseRegistry({ apiKey: API_KEY, fetch, baseUrl: "http://registry.test/ch" }).lookup("OC412345");
    expect(requests.map((request) => request.url)).toEqual(["http://registry.test/ch/company/OC412345", "http://registry.test/ch/company/OC412345"]);
  });

  it.each(["1234567", "sc123456", "../12345", "1234 567", "１２３４５６７８", ""])("are never made for the malformed number %j", async (companyNumber) => {
    const { registry, requests } = registryAnswering(recorded("active-ltd"));
    expect(await registry.lookup(companyNumber)).toEqual({ found: false, reason: "invalid_format" });
    expect(requests).toHaveLength(0);
  });
});

describe("Companies House failures", () => {
  it.each([500, 502, 503, 401, 429])("throw RegistryUnavailableError on a %i", async (status) => {
    const { registry } = registryAnswering(JSON.stringify({ errors: [{ error: "internal-error", type: "ch:service" }] }), status);
    const failure = await registry.lookup("12345678").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistryUnavailableError);
    expect(failure).toMatchObject({ status });
  });

  it("throw RegistryUnavailableError when the body is not JSON", async () => {
    const { registry } = registryAnswering("<html><body>Bad gateway</body></html>");
    await expect(registry.lookup("12345678")).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it.each([
    ["without a name", { company_name: undefined }],
    ["with a numeric status", { company_status: 1 }],
    ["without a type", { type: undefined }],
    ["with a date that is not YYYY-MM-DD", { date_of_creation: "15/06/2019" }],
  ])("throw RegistryUnavailableError for a profile %s", async (_case, fields) => {
    const { registry } = registryAnswering(withProfileFields(fields));
    await expect(registry.lookup("12345678")).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it("throw RegistryUnavailableError for a body that is JSON but not a profile", async () => {
    const { registry } = registryAnswering("[]");
    await expect(registry.lookup("12345678")).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it("throw RegistryUnavailableError, keeping the cause, when the network fails", async () => {
    const networkError = new TypeError("fetch failed");
    const registry = new CompaniesHouseRegistry({ apiKey: API_KEY, fetch: () => Promise.reject(networkError) });
    const failure = await registry.lookup("12345678").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistryUnavailableError);
    expect(failure).toMatchObject({ cause: networkError, status: undefined });
  });

  it("never put the API key in the error", async () => {
    const { registry } = registryAnswering("{}", 401);
    const failure = await registry.lookup("12345678").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistryUnavailableError);
    expect(String((failure as Error).message)).not.toContain(API_KEY);
    expect(JSON.stringify(failure)).not.toContain(API_KEY);
  });
});
