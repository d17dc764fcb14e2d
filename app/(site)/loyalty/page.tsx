// /loyalty — the loyalty ladder (lib/loyalty, the same as GET /public/v1/loyalty/tiers): what each tier takes and gives.
import type { Metadata } from "next";
import { loyaltyLadder } from "@/lib/loyalty/tiers";

export const metadata: Metadata = { title: "Loyalty tiers", description: "Repay well and stay with us: each tier takes more off the arrangement fee." };

export default function LoyaltyPage() {
  const ladder = loyaltyLadder();
  return (
    <main className="page">
      <h1>Loyalty tiers</h1>
      <p className="lede">Customers who repay and stay with us pay less to borrow again. Every customer starts at {ladder.tiers[0]!.label}.</p>
      <ul className="tier-list" aria-label="Tiers">
        {ladder.tiers.map((tier) => (
          <li key={tier.slug}>
            <h2>{tier.label}</h2>
            <ul className="figures">
              <li>
                <strong>{tier.benefits.arrangement_fee_discount_pct}%</strong> off the arrangement fee
              </li>
              <li>
                {tier.thresholds.min_repaid_loans === 0 ? "No loans repaid yet" : `${tier.thresholds.min_repaid_loans} or more loans repaid`}
              </li>
              <li>{tier.thresholds.min_tenure_months === 0 ? "From your first day" : `${tier.thresholds.min_tenure_months} months or more with us`}</li>
              {tier.thresholds.max_arrears_days_last_12_months !== null ? (
                <li>
                  {tier.thresholds.max_arrears_days_last_12_months === 0
                    ? "No days in arrears in the last 12 months"
                    : `At most ${tier.thresholds.max_arrears_days_last_12_months} days in arrears in the last 12 months`}
                </li>
              ) : null}
            </ul>
          </li>
        ))}
      </ul>
      <p>A tier you have earned is kept for at least {ladder.cooldown_days} days before we look at moving you down.</p>
    </main>
  );
}
