// Demo sandbox applications in several states, so a new integrator's first GET /applications shows the
// lifecycle: created, approved, declined, referred (in review), withdrawn and funded. Created once, through the
// same services and state machine as the API, so they carry the same events.
import { createApplication } from "../applications/create";
import { submitApplication, withdrawApplication } from "../applications/service";
import { fundApplication } from "../accounts/funding";
import { decideSubmittedApplication } from "../decisions/service";
import type { Database } from "../db";
import type { Tenant } from "../tenant";
import { tenantNow } from "../tenant-clock";

interface DemoApplication {
  companyNumber: string;
  amountPence: number;
  termMonths: number;
  reference: string;
  /** How far through the lifecycle to take it. */
  journey: "created" | "decided" | "withdrawn" | "funded";
}

/** The company of the demo project's funded account: the demo borrower's (seed-borrower.ts). */
export const DEMO_FUNDED_COMPANY_NUMBER = "OC000072";

const DEMO_APPLICATIONS: DemoApplication[] = [
  { companyNumber: "10000120", amountPence: 2_500_000, termMonths: 12, reference: "demo-created", journey: "created" },
  { companyNumber: "10000060", amountPence: 5_000_000, termMonths: 24, reference: "demo-approved", journey: "decided" },
  { companyNumber: "10000001", amountPence: 3_000_000, termMonths: 18, reference: "demo-declined", journey: "decided" },
  { companyNumber: "10000006", amountPence: 7_500_000, termMonths: 36, reference: "demo-referred", journey: "decided" },
  { companyNumber: "SC000048", amountPence: 1_000_000, termMonths: 6, reference: "demo-withdrawn", journey: "withdrawn" },
  { companyNumber: DEMO_FUNDED_COMPANY_NUMBER, amountPence: 12_000_000, termMonths: 48, reference: "demo-funded", journey: "funded" },
];

/** Creates the demo applications when the project has none in the sandbox; returns how many it created. */
export async function seedDemoApplications(database: Database, project: { id: string; clientId: string }): Promise<number> {
  if ((await database.application.count({ where: { projectId: project.id, environment: "sandbox" } })) > 0) return 0;
  const tenant: Tenant = { projectId: project.id, environment: "sandbox" };
  // The seed is a unit of work of its own (the CLI's `seed`, the dev server's start): one time for all its moves.
  const now = await tenantNow(tenant);
  for (const demo of DEMO_APPLICATIONS) {
    const application = await createApplication({
      tenant,
      now,
      input: {
        business: { company_number: demo.companyNumber },
        amount_pence: demo.amountPence,
        term_months: demo.termMonths,
        purpose: "working_capital",
        applicant: { email: "director@example.co.uk", first_name: "Demo" },
        reference: demo.reference,
        metadata: { seeded: "true" },
      },
    });
    if (demo.journey === "created") continue;
    if (demo.journey === "withdrawn") {
      await withdrawApplication({ tenant, now, id: application.id, reason: "Applied elsewhere" });
      continue;
    }
    await submitApplication({ tenant, now, id: application.id, declaredAnnualTurnoverPence: demo.amountPence * 10, queueDecisioning: false });
    await decideSubmittedApplication(application.id, now);
    if (demo.journey === "funded") await fundApplication({ tenant, now, applicationId: application.id });
  }
  return DEMO_APPLICATIONS.length;
}
