// Affordability (docs/white-label.md, "Affordability"): twelve months of the company's open-banking turnover,
// recorded on an application while it is `created`, from the partner's figures or from the environment's
// open-banking provider. The newest record counts: the decision engine weighs its annual total
// (lib/decisions/service.ts reads `latestAffordabilityFor`).
import { lockOwnApplicationOrThrow } from "../applications/service";
import { db, inTransaction, type DatabaseClient } from "../db";
import { ApiError } from "../errors";
import type { AffordabilityRecord, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Tenant } from "../tenant";
import { openBankingProviderFor } from "./choose-provider";
import type { OpenBankingProvider } from "./provider";
import type { RecordAffordabilityInput } from "./schemas";
import { serializeAffordability, type AffordabilityObject } from "./serialize";

export interface RecordAffordabilityOptions {
  tenant: Tenant;
  /** The request's time on the tenant's clock, which the record and its event carry. */
  now: Date;
  applicationId: string;
  /** Validated input: the partner's twelve months, or a `source` to read them from. */
  input: RecordAffordabilityInput;
  /** The caller's transaction, for the record to commit with its other writes. */
  transaction?: Prisma.TransactionClient;
}

/** The provider a `source` names, in the tenant's environment: 422 on `source` where there is none. */
function providerFor(tenant: Tenant): OpenBankingProvider {
  const provider = openBankingProviderFor(tenant.environment);
  if (provider) return provider;
  const message =
    "source sandbox_bank is the sandbox's simulated bank, which a live application cannot use: send monthly_turnover_pence, the company's twelve months of turnover from your open-banking provider.";
  throw new ApiError("validation_failed", { message, detail: [{ field: "source", reason: "sandbox_only", message }] });
}

/**
 * Records the company's twelve months of turnover. The application must be the tenant's (404 `not_found`; the
 * other environment's: 401 `environment_mismatch`) and `created` (409 `conflict`).
 */
export async function recordAffordability({ tenant, now, applicationId, input, transaction }: RecordAffordabilityOptions): Promise<AffordabilityObject> {
  const provider = input.source ? providerFor(tenant) : null;
  return inTransaction(transaction ?? db(), async (transaction) => {
    const application = await lockOwnApplicationOrThrow(transaction, tenant, applicationId);
    if (application.status !== "created") {
      throw new ApiError("conflict", {
        message: `Application ${applicationId} is ${application.status}: affordability is recorded while an application is created, before it is submitted.`,
      });
    }
    const monthlyTurnoverPence = input.monthly_turnover_pence ?? (await provider!.monthlyTurnover({ companyNumber: application.companyNumber }));
    const record = await transaction.affordabilityRecord.create({
      data: {
        id: newId("affordabilityRecord"),
        projectId: tenant.projectId,
        environment: tenant.environment,
        applicationId,
        source: provider?.name ?? "partner",
        monthlyTurnoverPence,
        recordedAt: now,
      },
    });
    return serializeAffordability(record, application);
  });
}

/** The application's newest affordability record, or null when it has none. */
export async function latestAffordabilityFor(applicationId: string, database: DatabaseClient = db()): Promise<AffordabilityRecord | null> {
  return database.affordabilityRecord.findFirst({ where: { applicationId }, orderBy: { id: "desc" } });
}
