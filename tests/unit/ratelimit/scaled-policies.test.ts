// RATE_LIMIT_SCALE multiplies a policy's allowance (lib/ratelimit/policies.ts): the scaled policy has its own
// bucket name, is built once per policy and scale, and scale 1 is the policy itself.
import { describe, expect, it } from "vitest";
import { projectBucketPolicy, scalePolicy, type FixedWindowPolicy, type TokenBucketPolicy } from "@/lib/ratelimit/policies";

const bucket: TokenBucketPolicy = { kind: "tokenBucket", name: "scaled-bucket", ratePerSecond: 2, burst: 5 };
const window: FixedWindowPolicy = { kind: "fixedWindow", name: "scaled-window", limit: 60, windowSeconds: 60 };

describe("scalePolicy", () => {
  it("multiplies the allowance under a name of its own", () => {
    expect(scalePolicy(bucket, 10)).toEqual({ kind: "tokenBucket", name: "scaled-bucket-x10", ratePerSecond: 20, burst: 50 });
    expect(scalePolicy(window, 3)).toEqual({ kind: "fixedWindow", name: "scaled-window-x3", limit: 180, windowSeconds: 60 });
  });

  it("is the policy itself at scale 1, and the same object each time at any other", () => {
    expect(scalePolicy(bucket, 1)).toBe(bucket);
    expect(scalePolicy(bucket, 100)).toBe(scalePolicy(bucket, 100));
    expect(scalePolicy(bucket, 7)).toMatchObject({ burst: 35 });
    expect(scalePolicy(bucket, 100)).toMatchObject({ burst: 500 });
  });
});

describe("projectBucketPolicy", () => {
  it("is one policy per rate and burst", () => {
    const launch = projectBucketPolicy({ ratePerSecond: 25, burst: 100, concurrent: 20 });
    expect(launch).toEqual({ kind: "tokenBucket", name: "project-25-100", ratePerSecond: 25, burst: 100 });
    expect(projectBucketPolicy({ ratePerSecond: 25, burst: 100, concurrent: 5 })).toBe(launch);
    expect(projectBucketPolicy({ ratePerSecond: 25, burst: 120, concurrent: 20 })).toMatchObject({ name: "project-25-120", burst: 120 });
  });
});
