// What the site's pages read from their address: the quote calculator's form, sent as a plain GET when the
// browser runs no JavaScript.
import { z } from "zod";
import { FREQUENCIES, type Frequency } from "../pricing/quotes";
import { requestString } from "../wire/request-string";

const wholeNumber = requestString()
  .regex(/^\d{1,9}$/)
  .transform(Number);

export const quoteCalculatorQuerySchema = z.strictObject({
  amount: wholeNumber,
  term: wholeNumber,
  frequency: z.enum(Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]]),
});
