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

/** Vitest's passed and failed tests; a missing report, or a failing exit code with nothing failed, is one failure. */
export function vitestTally(report: VitestReport | null, exitCode: number): Tally {
  if (!report) return { passed: 0, failed: 1 };
  return { passed: report.numPassedTests, failed: report.numFailedTests + (exitCode !== 0 && report.numFailedTests === 0 ? 1 : 0) };
}
