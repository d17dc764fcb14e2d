// A funded account made through the same services as the API: create, submit, decide, fund.
import { createApplication } from "@/lib/applications/create";
import { submitApplication } from "@/lib/applications/service";
import { fundApplication } from "@/lib/accounts/funding";
import { decideOnItsClock } from "@/lib/decisions/background";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";

export async function fundedAccount(tenant: Tenant, options: { companyNumber?: string; amountPence?: number; termMonths?: number; product?: "business_loan" | "flex" } = {}) {
  const application = await createApplication({
    tenant, now: await tenantNow(tenant),
    input: {
      business: { company_number: options.companyNumber ?? "12345678" },
      amount_pence: options.amountPence ?? 1_000_000,
      term_months: options.termMonths ?? 3,
      product: options.product ?? "business_loan",
      applicant: { email: "director@example.co.uk" },
    },
  });
  await submitApplication({ tenant, now: await tenantNow(tenant), id: application.id, declaredAnnualTurnoverPence: 100_000_000, queueDecisioning: false });
  await decideOnItsClock(application.id);
  return (await fundApplication({ tenant, now: await tenantNow(tenant), applicationId: application.id })).account;
}
