// The UK company number format both registries check before anything else: eight ASCII characters, either eight
// digits (England and Wales) or two capital letters and six digits (SC, NI, OC, SO...). Written with [0-9], not
// \d, so the rule reads as ASCII-only at a glance; full-width and other Unicode digits are refused.
const COMPANY_NUMBER = /^(?:[0-9]{8}|[A-Z]{2}[0-9]{6})$/;

export function isWellFormedCompanyNumber(companyNumber: string): boolean {
  return COMPANY_NUMBER.test(companyNumber);
}
