// Introductions (beta, spec 2.5, 3.3; docs/beta.md): one per application originated through a sub-account, made
// in the application's own create transaction. Its stage follows the application (./state-machine.ts); funding
// fixes the principal it introduced and the share that earns, which a payout (./payouts.ts) then takes.
import { Prisma, type Introduction, type SubAccount } from "../generated/prisma/client";
import { db } from "../db";
import { transition } from "../lifecycle";
import { tenantWhere, type Tenant } from "../tenant";
import { paginate } from "../wire/pagination";
import { INTRODUCTION_STAGES, type IntroductionStage, type ListIntroductionsQuery } from "./schemas";
import { serializeIntroduction } from "./serialize";
import { INTRODUCTION_LIFECYCLE, type IntroductionTrigger } from "./state-machine";

const BPS_PER_WHOLE = 10_000;

/** The revenue share on `principalPence` at `bps`, rounded down to the penny: a statement never pays a fraction. */
export function revenueSharePence(principalPence: number, bps: number): number {
  return Math.floor((principalPence * bps) / BPS_PER_WHOLE);
}

/**
 * The statement that makes an application's introduction (`started`, at the sub-account's rate now), for the
 * application create's batched transaction, which reads nothing (lib/applications/create.ts).
 */
export function insertIntroductionSql(introduction: { id: string; subAccount: SubAccount; applicationId: string; now: Date }): Prisma.Sql {
  const { id, subAccount, applicationId, now } = introduction;
  return Prisma.sql`INSERT INTO introductions (id, project_id, environment, sub_account_id, application_id, stage, revenue_share_bps,
    introduced_at, updated_at)
    VALUES (${id}, ${subAccount.projectId}, ${subAccount.environment}::"Environment", ${subAccount.id}, ${applicationId}, 'started',
    ${subAccount.revenueShareBps}, ${now}, ${now})`;
}

interface IntroductionMove {
  now: Date;
  changes?: Omit<Prisma.IntroductionUpdateInput, "stage" | "updatedAt">;
}

/**
 * Moves the introduction of `applicationId` by `trigger` in `transaction`, which holds the application's row lock:
 * an introduction only moves with its application, so that lock is its lock. Already at the move's stage: left
 * as it is. An illegal move is 409 `conflict`.
 */
export async function moveIntroduction(transaction: Prisma.TransactionClient, applicationId: string, trigger: IntroductionTrigger, move: IntroductionMove): Promise<Introduction | null> {
  const introduction = await transaction.introduction.findUnique({ where: { applicationId } });
  return introduction && moveRead(transaction, introduction, trigger, move);
}

function moveRead(transaction: Prisma.TransactionClient, introduction: Introduction, trigger: IntroductionTrigger, move: IntroductionMove): Promise<Introduction> | Introduction {
  if (introduction.stage === INTRODUCTION_LIFECYCLE.moves[trigger].to) return introduction;
  return transition(transaction, INTRODUCTION_LIFECYCLE, trigger, {
    status: introduction.stage,
    now: move.now,
    write: (to) => transaction.introduction.update({ where: { id: introduction.id }, data: { ...move.changes, stage: to, updatedAt: move.now } }),
    object: serializeIntroduction,
  });
}

/** Funding: the introduction of `applicationId` becomes `funded` with the principal it introduced and its share. */
export async function fundIntroduction(
  transaction: Prisma.TransactionClient,
  funding: { applicationId: string; accountId: string; principalPence: number; now: Date },
): Promise<Introduction | null> {
  const introduction = await transaction.introduction.findUnique({ where: { applicationId: funding.applicationId } });
  if (!introduction) return null;
  return moveRead(transaction, introduction, "fund", {
    now: funding.now,
    changes: {
      accountId: funding.accountId,
      principalPence: funding.principalPence,
      sharePence: revenueSharePence(funding.principalPence, introduction.revenueShareBps),
      fundedAt: funding.now,
    },
  });
}

export async function listIntroductions(options: { tenant: Tenant; query: ListIntroductionsQuery; url: string }) {
  const { query } = options;
  const where: Prisma.IntroductionWhereInput = {
    ...tenantWhere(options.tenant),
    ...(query.stage ? { stage: query.stage } : {}),
    ...(query.sub_account_id ? { subAccountId: query.sub_account_id } : {}),
  };
  return paginate({
    kind: "introduction",
    page: query,
    url: options.url,
    fetch: (window) => db().introduction.findMany({ where: { AND: [where, window.id ? { id: window.id } : {}] }, orderBy: window.orderBy, take: window.take }),
    exists: async (id) => (await db().introduction.count({ where: { AND: [where, { id }] } })) === 1,
    serialize: serializeIntroduction,
  });
}

/** How many introductions each of `subAccountIds` (the tenant's) has at each stage; a stage with none is 0. */
export async function countIntroductionsByStage({ tenant, subAccountIds }: { tenant: Tenant; subAccountIds: readonly string[] }) {
  const groups = await db().introduction.groupBy({
    by: ["subAccountId", "stage"],
    where: { ...tenantWhere(tenant), subAccountId: { in: [...subAccountIds] } },
    _count: { _all: true },
  });
  const counts = new Map(subAccountIds.map((id) => [id, Object.fromEntries(INTRODUCTION_STAGES.map((stage) => [stage, 0])) as Record<IntroductionStage, number>]));
  for (const group of groups) counts.get(group.subAccountId)![group.stage] = group._count._all;
  return counts;
}
