// The introduction's stages (docs/beta.md, "Introductions"), row by row: every (stage, move) pair either gives the
// documented stage or is refused with the one 409 `conflict`; moving an introduction to the stage it is at changes
// nothing; and the revenue share is principal × rate ÷ 10,000 rounded down to the penny, per introduction.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError, renderEnvelope } from "@/lib/errors";
import type { Introduction, Prisma } from "@/lib/generated/prisma/client";
import { assertMove, canMove, IllegalTransitionError } from "@/lib/lifecycle";
import { fundIntroduction, moveIntroduction, revenueSharePence } from "@/lib/revenue-share/introductions";
import { periodOf, startOfMonth } from "@/lib/revenue-share/payouts";
import { INTRODUCTION_STAGES, PAYOUT_STATUSES, type IntroductionStage } from "@/lib/revenue-share/schemas";
import { INTRODUCTION_LIFECYCLE, PAYOUT_LIFECYCLE, type IntroductionTrigger } from "@/lib/revenue-share/state-machine";

const NOW = new Date("2027-02-10T12:00:00.000Z");

/** docs/beta.md's table: the stage each move leads to from each stage, or "refused". */
const TABLE: Array<[IntroductionStage, IntroductionTrigger, IntroductionStage | "refused"]> = [
  ["started", "decide", "decisioned"],
  ["started", "decline", "declined"],
  ["started", "fund", "refused"],
  ["decisioned", "decide", "refused"],
  ["decisioned", "decline", "declined"],
  ["decisioned", "fund", "funded"],
  ["declined", "decide", "decisioned"],
  ["declined", "decline", "refused"],
  ["declined", "fund", "refused"],
  ["funded", "decide", "refused"],
  ["funded", "decline", "refused"],
  ["funded", "fund", "refused"],
];

const SAID: Record<IntroductionTrigger, string> = { decide: "decisioned", decline: "declined", fund: "funded" };

function refusalOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

function introductionAt(stage: IntroductionStage, changes: Partial<Introduction> = {}): Introduction {
  return {
    id: "intro_01jtest",
    projectId: "proj_01jtest",
    environment: "sandbox",
    subAccountId: "sub_01jtest",
    applicationId: "app_01jtest",
    stage,
    accountId: null,
    revenueShareBps: 100,
    principalPence: null,
    sharePence: null,
    payoutId: null,
    introducedAt: new Date("2027-02-01T09:00:00.000Z"),
    fundedAt: null,
    updatedAt: new Date("2027-02-01T09:00:00.000Z"),
    ...changes,
  };
}

/** A stand-in transaction holding one introduction: what moveIntroduction reads and writes, and nothing else. */
function transactionHolding(introduction: Introduction | null) {
  const updates: Array<Prisma.IntroductionUpdateArgs> = [];
  let row = introduction;
  const transaction = {
    introduction: {
      findUnique: async () => row,
      update: async (args: Prisma.IntroductionUpdateArgs) => {
        updates.push(args);
        row = { ...row!, ...(args.data as Partial<Introduction>) };
        return row;
      },
    },
    event: { createMany: async () => expect.unreachable("an introduction's move writes no event") },
  } as unknown as Prisma.TransactionClient;
  return { transaction, updates, row: () => row };
}

describe("the introduction's stage table", () => {
  it("has the four stages and three moves docs/beta.md lists, none writing an event", () => {
    expect(INTRODUCTION_STAGES).toEqual(["started", "decisioned", "funded", "declined"]);
    expect(INTRODUCTION_LIFECYCLE.object).toBe("introduction");
    expect(INTRODUCTION_LIFECYCLE.moves).toEqual({
      decide: { from: ["started", "declined"], to: "decisioned", events: [] },
      decline: { from: ["started", "decisioned"], to: "declined", events: [] },
      fund: { from: ["decisioned"], to: "funded", events: [] },
    });
    expect(TABLE).toHaveLength(INTRODUCTION_STAGES.length * Object.keys(INTRODUCTION_LIFECYCLE.moves).length);
  });

  it.each(TABLE)("from %s, %s gives %s", (stage, trigger, expected) => {
    if (expected === "refused") {
      expect(canMove(INTRODUCTION_LIFECYCLE, stage, trigger)).toBe(false);
      const refused = refusalOf(() => assertMove(INTRODUCTION_LIFECYCLE, stage, trigger));
      expect(refused).toBeInstanceOf(IllegalTransitionError);
      expect(refused).toMatchObject({ code: "conflict", object: "introduction", from: stage, trigger, message: `An introduction that is ${stage} cannot be ${SAID[trigger]}.` });
      expect(renderEnvelope(refused as ApiError, "cor_x", "partner")).toMatchObject({ status: 409, body: { error: { code: "conflict", retryable: false } } });
    } else {
      expect(canMove(INTRODUCTION_LIFECYCLE, stage, trigger)).toBe(true);
      expect(assertMove(INTRODUCTION_LIFECYCLE, stage, trigger).to).toBe(expected);
    }
  });

  it("pays a payout once: pending to paid with payout.paid, and never from paid", () => {
    expect(PAYOUT_STATUSES).toEqual(["pending", "paid"]);
    expect(assertMove(PAYOUT_LIFECYCLE, "pending", "pay")).toEqual({ from: ["pending"], to: "paid", events: ["payout.paid"] });
    expect(refusalOf(() => assertMove(PAYOUT_LIFECYCLE, "paid", "pay"))).toMatchObject({ code: "conflict", message: "A payout that is paid cannot be paid." });
  });
});

describe("moving an application's introduction", () => {
  it.each(TABLE)("from %s, %s writes %s (or nothing when refused or already there)", async (stage, trigger, expected) => {
    const held = transactionHolding(introductionAt(stage));
    const alreadyThere = INTRODUCTION_LIFECYCLE.moves[trigger].to === stage;
    if (expected === "refused" && !alreadyThere) {
      await expect(moveIntroduction(held.transaction, "app_01jtest", trigger, { now: NOW })).rejects.toMatchObject({
        code: "conflict",
        message: `An introduction that is ${stage} cannot be ${SAID[trigger]}.`,
      });
      expect(held.updates).toEqual([]);
      return;
    }
    const moved = await moveIntroduction(held.transaction, "app_01jtest", trigger, { now: NOW });
    if (alreadyThere) {
      // A referral later approved: the introduction is decisioned already, and stays as it was.
      expect(moved).toEqual(introductionAt(stage));
      expect(held.updates).toEqual([]);
    } else {
      expect(moved?.stage).toBe(expected);
      expect(held.updates).toEqual([{ where: { id: "intro_01jtest" }, data: { stage: expected, updatedAt: NOW } }]);
    }
  });

  it("leaves an application without an introduction alone", async () => {
    const held = transactionHolding(null);
    expect(await moveIntroduction(held.transaction, "app_01jtest", "decline", { now: NOW })).toBeNull();
    expect(await fundIntroduction(held.transaction, { applicationId: "app_01jtest", accountId: "acc_01jtest", principalPence: 1_000_000, now: NOW })).toBeNull();
    expect(held.updates).toEqual([]);
  });

  it("funds a decisioned introduction with its principal, the account and the share at the rate it was made at", async () => {
    const held = transactionHolding(introductionAt("decisioned", { revenueShareBps: 137 }));
    const funded = await fundIntroduction(held.transaction, { applicationId: "app_01jtest", accountId: "acc_01jtest", principalPence: 1_234_567, now: NOW });
    expect(funded).toMatchObject({ stage: "funded", accountId: "acc_01jtest", principalPence: 1_234_567, sharePence: 16_913, fundedAt: NOW, revenueShareBps: 137 });
    expect(held.updates).toEqual([
      { where: { id: "intro_01jtest" }, data: { accountId: "acc_01jtest", principalPence: 1_234_567, sharePence: 16_913, fundedAt: NOW, stage: "funded", updatedAt: NOW } },
    ]);
  });

  it("refuses to fund a declined introduction, writing nothing", async () => {
    const held = transactionHolding(introductionAt("declined"));
    await expect(fundIntroduction(held.transaction, { applicationId: "app_01jtest", accountId: "acc_01jtest", principalPence: 1_000_000, now: NOW })).rejects.toBeInstanceOf(
      IllegalTransitionError,
    );
    expect(held.updates).toEqual([]);
    expect(held.row()?.stage).toBe("declined");
  });
});

describe("revenueSharePence", () => {
  it.each([
    [2_000_000, 100, 20_000],
    [1_234_567, 137, 16_913],
    [99, 100, 0],
    [100, 100, 1],
    [199, 50, 0],
    [200, 50, 1],
    [9_999, 1, 0],
    [10_000, 1, 1],
    [25_000_000, 10_000, 25_000_000],
    [25_000_000, 0, 0],
    [100_001, 9_999, 99_990],
  ])("%i pence at %i bps earns %i pence", (principal, bps, share) => {
    expect(revenueSharePence(principal, bps)).toBe(share);
  });

  it("rounds down to the penny, never up, for any principal and rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), (principal, bps) => {
        const share = revenueSharePence(principal, bps);
        const exact = BigInt(principal) * BigInt(bps);
        expect(Number.isInteger(share)).toBe(true);
        expect(BigInt(share)).toBe(exact / 10_000n);
        expect(share).toBeLessThanOrEqual(principal);
      }),
      { numRuns: 500 },
    );
  });

  it("rounds per introduction: the shares of a split never exceed the share of the whole", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 100_000, max: 25_000_000 }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 10_000 }), (principals, bps) => {
        const perIntroduction = principals.reduce((sum, principal) => sum + revenueSharePence(principal, bps), 0);
        const whole = revenueSharePence(principals.reduce((sum, principal) => sum + principal, 0), bps);
        expect(perIntroduction).toBeLessThanOrEqual(whole);
        expect(whole - perIntroduction).toBeLessThan(principals.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe("a payout's period", () => {
  it("is the UTC month a funding falls in, closing at midnight UTC on the 1st", () => {
    expect(periodOf(new Date("2027-01-31T23:59:59.999Z"))).toBe("2027-01");
    expect(periodOf(new Date("2027-02-01T00:00:00.000Z"))).toBe("2027-02");
    expect(startOfMonth(new Date("2027-12-31T23:59:59.999Z")).toISOString()).toBe("2027-12-01T00:00:00.000Z");
    expect(startOfMonth(new Date("2028-02-29T12:00:00.000Z")).toISOString()).toBe("2028-02-01T00:00:00.000Z");
  });
});
