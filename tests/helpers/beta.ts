// Fixtures for the beta constructs (docs/beta.md): a partner with the `beta` capability and its HTTP caller,
// applications originated through a sub-account and funded through the same services the routes call (fast,
// for tests that need many), and the rows a refusal must leave unwritten.
import { fundApplication } from "@/lib/accounts/funding";
import { createApplication } from "@/lib/applications/create";
import { submitApplication } from "@/lib/applications/service";
import { db } from "@/lib/db";
import { decideOnItsClock } from "@/lib/decisions/background";
import type { Tenant } from "@/lib/tenant";
import { tenantNow } from "@/lib/tenant-clock";
import { jsonRequest } from "./http";
import { bearer } from "./partner";

export type Json = Record<string, any>;

/** The partner API at `baseUrl` as `token`: a JSON body when one is given, and any extra headers. */
export function partnerCaller(baseUrl: string, token: string) {
  return (method: string, path: string, body?: unknown, options: { token?: string; headers?: Record<string, string> } = {}): Promise<Response> => {
    const init = body === undefined ? { method, headers: options.headers ?? {} } : jsonRequest(method, body, options.headers);
    return fetch(`${baseUrl}/partner/v1${path}`, bearer(options.token ?? token, init));
  };
}

/** The beta rows and applications of a project: what a refused request must leave as it was. */
export async function betaRows(projectId: string) {
  const where = { projectId };
  const [subAccounts, introductions, payouts, applications] = await Promise.all([
    db().subAccount.count({ where }),
    db().introduction.count({ where }),
    db().payout.count({ where }),
    db().application.count({ where }),
  ]);
  return { subAccounts, introductions, payouts, applications };
}

export interface Originated {
  applicationId: string;
  introductionId: string;
  accountId: string | null;
  status: string;
}

/**
 * An application originated through `subAccountId`, submitted and decided on its project's clock (the sandbox
 * decides by the company number's last four digits, docs/sandbox.md), and funded when approved and `fund` is not
 * false: the services the routes call, without HTTP.
 */
export async function originate(
  tenant: Tenant,
  subAccountId: string,
  options: { amountPence?: number; companyNumber?: string; product?: "business_loan" | "flex"; fund?: boolean } = {},
): Promise<Originated> {
  const created = await createApplication({
    tenant,
    now: await tenantNow(tenant),
    input: {
      business: { company_number: options.companyNumber ?? "12345678" },
      amount_pence: options.amountPence ?? 1_000_000,
      term_months: 12,
      applicant: { email: "director@example.co.uk" },
      sub_account_id: subAccountId,
      ...(options.product ? { product: options.product } : {}),
    },
  });
  await submitApplication({ tenant, now: await tenantNow(tenant), id: created.id, queueDecisioning: false });
  const decided = await decideOnItsClock(created.id);
  if (decided === "busy") throw new Error(`decisioning of ${created.id} was busy`);
  let application = await db().application.findUniqueOrThrow({ where: { id: created.id } });
  if (application.status === "approved" && options.fund !== false) {
    await fundApplication({ tenant, now: await tenantNow(tenant), applicationId: created.id });
    application = await db().application.findUniqueOrThrow({ where: { id: created.id } });
  }
  return { applicationId: application.id, introductionId: application.introductionId!, accountId: application.accountId, status: application.status };
}
