// RATE_LIMIT_SCALE multiplies a policy's allowance (lib/ratelimit/policies.ts): the scaled policy has its own
// bucket name, is built once per policy and scale, and scale 1 is the policy itself.
import { describe, expect, it } from "vitest";
import { scalePolicy, type FixedWindowPolicy, type TokenBucketPolicy } from "@/lib/ratelimit/policies";

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
