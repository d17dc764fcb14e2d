// What `npm test` counts from each runner's JSON report, kept apart from the running so it can be tested alone.

export interface Tally {
  passed: number;
  failed: number;
}

/** The part of vitest's JSON report (`--reporter=json`) the tally reads. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ status: string }> }>;
}

/**
 * Vitest's passed and failed tests. A file that failed with no failed test of its own (its import threw, or a hook
 * outside any test did) has no test to count, so it counts as one failure; so do a missing report and a failing exit
 * code with nothing failed.
 */
export function vitestTally(report: VitestReport | null, exitCode: number): Tally {
  if (!report) return { passed: 0, failed: 1 };
  const failedFiles = report.testResults.filter(
    ({ status, assertionResults }) => status === "failed" && !assertionResults.some((assertion) => assertion.status === "failed"),
  ).length;
  const failed = report.numFailedTests + failedFiles;
  return { passed: report.numPassedTests, failed: failed + (exitCode !== 0 && failed === 0 ? 1 : 0) };
}
