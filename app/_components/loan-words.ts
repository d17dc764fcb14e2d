// How the borrower area and the partner dashboard name what the API spells as codes, and write dates (calendar
// dates as the hosted pages write them, app/(apply)/format.ts).
export { formatShortDate } from "../(apply)/format";

const UK_DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });

/** The day of an instant, in UK time: 27 November 2026. */
export function formatDay(instant: string): string {
  return UK_DAY.format(new Date(instant));
}

export const ACCOUNT_STATUS_WORDS: Record<string, string> = {
  performing: "Up to date",
  in_arrears: "Payment missed",
  forborne: "Payment plan agreed",
  settled: "Repaid in full",
  closed: "Closed",
};

export const APPLICATION_STATUS_WORDS: Record<string, string> = {
  created: "Started",
  submitted: "Submitted",
  in_review: "Being reviewed",
  approved: "Approved",
  declined: "Declined",
  funded: "Funded",
  withdrawn: "Withdrawn",
  expired: "Expired",
};

export const INSTALMENT_STATUS_WORDS: Record<string, string> = {
  scheduled: "To pay",
  paid: "Paid",
  missed: "Missed",
  partially_paid: "Partly paid",
};

export const PRODUCT_WORDS: Record<string, string> = {
  business_term_loan: "Business loan",
  flex_facility: "Flex credit",
  business_loan: "Business loan",
  flex: "Flex credit",
};

export const TRANSACTION_WORDS: Record<string, string> = {
  collection: "Repayment collected",
  drawdown: "Money sent to you",
  refund: "Refund",
  adjustment: "Adjustment",
};
