/**
 * The closing lines of `npm test`, read from vitest's JSON report. Counting only failed tests hides a
 * file that failed to load or whose `beforeAll` threw: vitest reports its tests as skipped, so a broken
 * run could read "1525 passed, 0 failed". Here every failed file is counted and named with its message,
 * the tests inside failed files that did not run are called "not run", and a non-zero exit code is
 * always printed, since vitest can fail on an error no test or file owns.
 */
import { relative } from 'node:path';

/** The part of vitest's JSON reporter output the summary reads. */
export interface VitestJsonReport {
  testResults: readonly VitestFileResult[];
}

export interface VitestFileResult {
  /** Absolute path of the test file. */
  name: string;
  status: 'passed' | 'failed';
  /** The file's own error (failed import, top-level `beforeAll`, …); empty when it has none. */
  message: string;
  assertionResults: readonly { status: string }[];
}

export interface SummaryInput {
  /** The parsed report, or undefined when vitest wrote none (it stopped before running anything). */
  report: VitestJsonReport | undefined;
  exitCode: number;
  /** Paths are shown relative to this directory. */
  root: string;
}

/** The lines to print, the count line first. */
export function summarizeTestRun({ report, exitCode, root }: SummaryInput): string[] {
  if (!report) return [`no test report was written; vitest exited with code ${exitCode}`];

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let notRun = 0;
  const failedFiles: string[] = [];
  for (const file of report.testResults) {
    const fileFailed = file.status === 'failed';
    let failedHere = 0;
    let notRunHere = 0;
    for (const { status } of file.assertionResults) {
      if (status === 'passed') passed += 1;
      else if (status === 'failed') failedHere += 1;
      // A test that neither passed nor failed in a failed file may be one the failure kept from running.
      else if (fileFailed) notRunHere += 1;
      else skipped += 1;
    }
    failed += failedHere;
    notRun += notRunHere;
    if (fileFailed) {
      failedFiles.push(
        `  ${relative(root, file.name)}: ${whyFileFailed(file.message, failedHere, notRunHere)}`,
      );
    }
  }

  const tests = [`${passed} passed`, `${failed} failed`];
  if (notRun > 0) tests.push(`${notRun} not run`);
  tests.push(`${skipped} skipped`);
  const files = `${report.testResults.length} test files, ${failedFiles.length} failed`;
  const lines = [`${files}; tests: ${tests.join(', ')}`];
  if (failedFiles.length > 0) lines.push('failed files:', ...failedFiles);
  if (exitCode !== 0 && failed === 0 && failedFiles.length === 0) {
    // Errors thrown outside any test (an unhandled rejection, an 'error' event nobody listens to) fail
    // the run but no test: the count line alone would read as a success.
    lines.push('the run FAILED with no failed test: vitest reported errors outside the tests (see above)');
  }
  if (exitCode !== 0) lines.push(`vitest exited with code ${exitCode}`);
  return lines;
}

function whyFileFailed(message: string, failedTests: number, notRunTests: number): string {
  const parts: string[] = [];
  if (message) parts.push(firstLine(message));
  if (failedTests > 0) parts.push(`${failedTests} ${failedTests === 1 ? 'test' : 'tests'} failed`);
  if (notRunTests > 0) parts.push(`${notRunTests} ${notRunTests === 1 ? 'test' : 'tests'} not run`);
  // A throwing beforeAll inside a describe fails that suite, and the report carries no message for it.
  if (!message && failedTests === 0)
    parts.push('failed outside its tests (a hook or suite); see the output above');
  return parts.join('; ');
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}
