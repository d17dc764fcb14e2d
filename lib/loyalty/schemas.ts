// The loyalty ladder as the public API answers it (spec 2.10; lib/loyalty/tiers.ts).
import { z } from "zod";
import { text } from "../wire/response-schema";

export const loyaltyLadderSchema = z
  .strictObject({
    tiers: z.array(
      z.strictObject({
        slug: z.enum(["bronze", "silver", "gold", "platinum"]),
        label: text(),
        thresholds: z.strictObject({ min_repaid_loans: z.int(), min_tenure_months: z.int(), max_arrears_days_last_12_months: z.int().nullable() }),
        benefits: z.strictObject({ arrangement_fee_discount_pct: z.number() }),
        is_top_tier: z.boolean(),
      }),
    ),
    cooldown_days: z.int().meta({ description: "A tier earned is kept this long before any downgrade is considered." }),
  })
  .meta({ id: "LoyaltyLadder", description: "The loyalty tiers (spec 2.10)." });
