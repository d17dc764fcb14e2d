import { afterEach, describe, expect, it, vi } from "vitest";
import { CompaniesHouseRegistry } from "@/lib/registry/companies-house-registry";
import { createRegistry } from "@/lib/registry/registry";
import { SandboxRegistry } from "@/lib/registry/sandbox-registry";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createRegistry", () => {
  it("uses the sandbox when no Companies House key is configured", () => {
    expect(createRegistry({})).toBeInstanceOf(SandboxRegistry);
    expect(createRegistry({ companiesHouseApiKey: undefined })).toBeInstanceOf(SandboxRegistry);
  });

  it("treats a blank key as no key", () => {
    expect(createRegistry({ companiesHouseApiKey: "" })).toBeInstanceOf(SandboxRegistry);
  });

  it("uses Companies House, with the given key, when a key is configured", async () => {
    const requests: Array<{ url: string; authorization: string | null }> = [];
    // The global fetch is replaced before the registry is built, so no request leaves the process.
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      requests.push({ url, authorization: new Headers(init.headers).get("authorization") });
      return new Response(null, { status: 404 });
    });
    const registry = createRegistry({ companiesHouseApiKey: "live_key" });
    expect(registry).toBeInstanceOf(CompaniesHouseRegistry);
    expect(await registry.lookup("12345678")).toEqual({ found: false, reason: "company_not_found" });
    // base64("live_key:")
    expect(requests).toEqual([{ url: "https://api.company-information.service.gov.uk/company/12345678", authorization: "Basic bGl2ZV9rZXk6" }]);
  });
});
