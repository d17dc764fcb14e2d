// The tenant's decisions counted, for the partner MCP tools' metrics.
import { db } from "../db";
import type { DecisionOutcome } from "../generated/prisma/client";
import { tenantWhere, type Tenant } from "../tenant";

/** The tenant's decisions made since `since`, counted by outcome. */
export async function countDecisionsByOutcome(tenant: Tenant, since: Date): Promise<Partial<Record<DecisionOutcome, number>>> {
  const groups = await db().decision.groupBy({ by: ["outcome"], where: { ...tenantWhere(tenant), decidedAt: { gte: since } }, _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.outcome, group._count._all]));
}
