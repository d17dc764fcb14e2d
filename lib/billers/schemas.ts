// The biller list as the public API answers it (spec 2.10).
import { z } from "zod";
import { idOf, listEnvelopeSchema, text } from "../wire/response-schema";

export const billerListSchema = listEnvelopeSchema(
  z.strictObject({ id: idOf("bil"), object: z.literal("biller"), name: text(), category: text() }).meta({ id: "Biller", description: "A biller Slice customers may pay." }),
);
