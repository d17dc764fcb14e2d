// What `npm test`'s closing line counts for vitest: a test file that fails to load has no failed test in the report,
// yet it is a failure of the run.
import { describe, expect, it } from "vitest";
import { type VitestReport, vitestTally } from "@/scripts/test-tally";

const passingFile = { name: "/repo/tests/unit/ids.test.ts", status: "passed", assertionResults: [{ status: "passed" }, { status: "passed" }] };
const failingFile = { name: "/repo/tests/unit/errors.test.ts", status: "failed", assertionResults: [{ status: "passed" }, { status: "failed" }] };
// As vitest reports a file whose import threw: failed, with no assertions at all.
const unloadedFile = { name: "/repo/tests/api/partner/webhook-dns.test.ts", status: "failed", assertionResults: [] };

function report(testResults: VitestReport["testResults"]): VitestReport {
  const assertions = testResults.flatMap(({ assertionResults }) => assertionResults);
  return {
    numPassedTests: assertions.filter(({ status }) => status === "passed").length,
    numFailedTests: assertions.filter(({ status }) => status === "failed").length,
    testResults,
  };
}

describe("the vitest tally of npm test", () => {
  it("counts the passed and failed tests of a run whose files all loaded", () => {
    expect(vitestTally(report([passingFile, failingFile]), 1)).toEqual({ passed: 3, failed: 1 });
    expect(vitestTally(report([passingFile]), 0)).toEqual({ passed: 2, failed: 0 });
  });

  it("counts a file that failed to load as a failure, whatever vitest's exit code", () => {
    expect(vitestTally(report([passingFile, unloadedFile]), 0)).toEqual({ passed: 2, failed: 1 });
    expect(vitestTally(report([passingFile, unloadedFile]), 1)).toEqual({ passed: 2, failed: 1 });
  });

  it("counts a file that failed to load on top of the failed tests of other files", () => {
    expect(vitestTally(report([passingFile, failingFile, unloadedFile]), 1)).toEqual({ passed: 3, failed: 2 });
  });

  it("counts a failing exit code with nothing failed in the report as one failure, and a missing report as one", () => {
    expect(vitestTally(report([passingFile]), 1)).toEqual({ passed: 2, failed: 1 });
    expect(vitestTally(null, 0)).toEqual({ passed: 0, failed: 1 });
  });
});
