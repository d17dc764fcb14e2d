// The consents an applicant gives before an application is submitted (spec 3.1: "the applicant finishes and
// consents"), with the text of each at each version. The hosted journey shows these texts; a white-label
// partner shows them on its own screens and records which version the applicant agreed to. A changed text is a
// new version (the date it takes effect, YYYY-MM-DD) added at the end of its list; older versions stay, so a
// consent recorded against one can always be read back. docs/white-label.md lists the current texts
// (tests/unit/application-consents holds the two equal).

export const CONSENT_TYPES = ["credit_search", "data_sharing", "terms"] as const;
export type ConsentType = (typeof CONSENT_TYPES)[number];

/** Every consent is required before submission; none is optional today. */
export const REQUIRED_CONSENTS: readonly ConsentType[] = CONSENT_TYPES;

export interface ConsentText {
  type: ConsentType;
  /** The date this text took effect, YYYY-MM-DD: what `text_version` names. */
  version: string;
  /** The checkbox's label; each begins "I agree". */
  label: string;
  /** What the applicant agrees to, shown beside the checkbox. */
  text: string;
}

/** Each type's texts, oldest first: the last is the current one. */
export const CONSENT_TEXTS: Record<ConsentType, readonly ConsentText[]> = {
  credit_search: [
    {
      type: "credit_search",
      version: "2026-11-01",
      label: "I agree to a credit search of the company and its directors",
      text:
        "We will search the records of credit reference agencies about the company and about its directors and people with significant control. " +
        "The search leaves a footprint on the company's credit file that other lenders can see. We use what we find to decide whether to lend and to confirm identities.",
    },
  ],
  data_sharing: [
    {
      type: "data_sharing",
      version: "2026-11-01",
      label: "I agree to the lender sharing this application's data with its partners",
      text:
        "We share the information in this application, and about the loan if the company takes it, with the partner that introduced the company, " +
        "with credit reference and fraud prevention agencies, and with the identity and open-banking providers that process the application. They use it only for these purposes.",
    },
  ],
  terms: [
    {
      type: "terms",
      version: "2026-11-01",
      label: "I agree to the loan terms",
      text:
        "I have read and accept the Business Loan terms and conditions. I confirm that I am authorised to apply for credit on the company's behalf " +
        "and that the information in this application is true and complete.",
    },
  ],
};

export function currentConsentText(type: ConsentType): ConsentText {
  return CONSENT_TEXTS[type].at(-1)!;
}

/** The text of `type` at `version`, or undefined when there is no such version. */
export function findConsentText(type: ConsentType, version: string): ConsentText | undefined {
  return CONSENT_TEXTS[type].find((text) => text.version === version);
}
