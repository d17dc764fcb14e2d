import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";

describe("configuration", () => {
  it("defaults every host of the spec to the one origin the app listens on", () => {
    const settings = parseConfig({ PORT: "4100" });
    for (const host of ["BASE_URL", "HUB_URL", "PARTNER_API_URL", "SSO_URL", "APPLY_URL", "JS_URL"] as const) {
      expect(settings[host]).toBe("http://localhost:4100");
    }
    expect(settings.BODY_LIMIT_BYTES).toBe(1024 * 1024);
  });

  it("lets hosts follow BASE_URL unless set themselves, without trailing slashes", () => {
    const settings = parseConfig({ BASE_URL: "https://lend.example/", APPLY_URL: "https://apply.lend.example" });
    expect(settings.HUB_URL).toBe("https://lend.example");
    expect(settings.APPLY_URL).toBe("https://apply.lend.example");
  });

  it("treats blank variables as unset", () => {
    expect(parseConfig({ HUB_URL: "", PORT: "" }).HUB_URL).toBe("http://localhost:3000");
  });

  it.each([
    [{ HUB_URL: "not a url" }, "HUB_URL"],
    [{ PORT: "seventy" }, "PORT"],
    [{ DATABASE_URL: "mysql://db/x" }, "DATABASE_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ BASE_URL: "ftp://files.example" }, "BASE_URL"],
  ])("fails with a message naming the bad variable (%o)", (environment, variable) => {
    expect(() => parseConfig(environment)).toThrow(ConfigError);
    expect(() => parseConfig(environment)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}:`));
  });
});
