// The published loyalty ladder (spec 2.10). Tiers are reached by repaid loans and tenure, and a tier earned is
// kept through a cooldown before any downgrade is considered.
import { z } from "zod";
import { text } from "../wire/response-schema";

export const LOYALTY_COOLDOWN_DAYS = 90;

export const LOYALTY_TIERS = [
  { slug: "bronze", label: "Bronze", thresholds: { min_repaid_loans: 0, min_tenure_months: 0, max_arrears_days_last_12_months: null }, benefits: { arrangement_fee_discount_pct: 0 } },
  { slug: "silver", label: "Silver", thresholds: { min_repaid_loans: 1, min_tenure_months: 6, max_arrears_days_last_12_months: 14 }, benefits: { arrangement_fee_discount_pct: 10 } },
  { slug: "gold", label: "Gold", thresholds: { min_repaid_loans: 3, min_tenure_months: 12, max_arrears_days_last_12_months: 7 }, benefits: { arrangement_fee_discount_pct: 20 } },
  { slug: "platinum", label: "Platinum", thresholds: { min_repaid_loans: 6, min_tenure_months: 24, max_arrears_days_last_12_months: 0 }, benefits: { arrangement_fee_discount_pct: 30 } },
] as const;

export function loyaltyLadder() {
  return {
    tiers: LOYALTY_TIERS.map((tier, index) => ({ ...tier, is_top_tier: index === LOYALTY_TIERS.length - 1 })),
    cooldown_days: LOYALTY_COOLDOWN_DAYS,
  };
}

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
