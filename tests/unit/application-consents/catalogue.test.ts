// The consent texts (lib/application-consents/catalogue.ts): what the hosted journey shows and white-label
// partners must show, so docs/white-label.md lists each current text word for word.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONSENT_TEXTS, CONSENT_TYPES, REQUIRED_CONSENTS, currentConsentText, findConsentText } from "@/lib/application-consents/catalogue";

describe("the consent catalogue", () => {
  it("requires every consent", () => {
    expect(REQUIRED_CONSENTS).toEqual(["credit_search", "data_sharing", "terms"]);
  });

  it.each(CONSENT_TYPES)("gives %s versions that are real dates, oldest first, each label beginning 'I agree'", (type) => {
    const versions = CONSENT_TEXTS[type].map((text) => text.version);
    for (const version of versions) expect(new Date(`${version}T00:00:00Z`).toISOString().slice(0, 10)).toBe(version);
    expect([...versions].sort()).toEqual(versions);
    for (const text of CONSENT_TEXTS[type]) {
      expect(text.type).toBe(type);
      expect(text.label).toMatch(/^I agree /);
    }
    expect(currentConsentText(type)).toBe(CONSENT_TEXTS[type].at(-1));
    expect(findConsentText(type, "1999-01-01")).toBeUndefined();
  });

  it("is the table docs/white-label.md shows", () => {
    const documented = readFileSync("docs/white-label.md", "utf8");
    for (const type of CONSENT_TYPES) {
      const { version, label, text } = currentConsentText(type);
      expect(documented).toContain(`| \`${type}\` | \`${version}\` | ${label} | ${text} |`);
    }
  });
});
