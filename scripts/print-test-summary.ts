/**
 * Prints the closing lines of `npm test` (see test-summary.ts).
 * Usage: tsx scripts/print-test-summary.ts <vitest JSON report> <vitest exit code>
 */
import { readFileSync } from 'node:fs';
import { summarizeTestRun, type VitestJsonReport } from './test-summary.js';

const [reportPath = '', exitCode = '1'] = process.argv.slice(2);
console.log(
  summarizeTestRun({ report: readReport(reportPath), exitCode: Number(exitCode), root: process.cwd() }).join(
    '\n',
  ),
);

function readReport(path: string): VitestJsonReport | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // vitest writes nothing when it stops before running (a bad config); mktemp left the file empty.
  if (!text.trim()) return undefined;
  return JSON.parse(text) as VitestJsonReport;
}
