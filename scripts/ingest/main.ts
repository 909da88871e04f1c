/**
 * Loads an NDJSON file of bulk commands, or a directory of STAC-like JSON records, into the service
 * through its bulk endpoint (docs/bulk-ingest.md, "The ingest CLI").
 * Usage: npm run ingest -- <file.ndjson | directory> [--parent <id>] [--url <base url>]
 *        [--request-lines 5000] [--attempts 6] [--failures <file>]
 * The API key comes from PORTAL_API_KEY (`Authorization: Bearer`); the base URL from PORTAL_URL.
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { Progress } from './progress.js';
import { sourceOf, type SkippedRecord, type SourceLine } from './records.js';
import { sendLines, type LineResult } from './send.js';

const usage = 'usage: npm run ingest -- <file.ndjson | directory> [--parent <id>] [--url <base url>]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parent: { type: 'string' },
    url: { type: 'string' },
    'request-lines': { type: 'string', default: '5000' },
    attempts: { type: 'string', default: '6' },
    failures: { type: 'string' },
  },
});
const [path] = positionals;
if (path === undefined || positionals.length > 1) fail('name one file or directory');
const apiKey = process.env.PORTAL_API_KEY;
if (!apiKey) fail('set PORTAL_API_KEY to an API key of the pipeline (Authorization: Bearer)');
const base = values.url ?? process.env.PORTAL_URL ?? 'http://localhost:3000';
const requestLines = Number(values['request-lines']);
const attempts = Number(values.attempts);
if (!Number.isInteger(requestLines) || requestLines < 1)
  fail('--request-lines must be a positive whole number');
if (!Number.isInteger(attempts) || attempts < 1) fail('--attempts must be a positive whole number');

const source = await sourceOf(path, values.parent ?? null);
const progress = new Progress(source.total, process.stderr);
const failures = values.failures === undefined ? null : createWriteStream(values.failures);
const firstFailures: LineResult[] = [];
const onResult = (result: LineResult): void => {
  const ok = result.status >= 200 && result.status < 300;
  progress.record(ok);
  if (ok) return;
  if (firstFailures.length < 20) firstFailures.push(result);
  failures?.write(`${JSON.stringify(result)}\n`);
};
const target = { url: new URL('/api/v1/portal/bulk', base), apiKey };
const send = (lines: readonly SourceLine[]) =>
  sendLines(target, lines, {
    attempts,
    onResult,
    onRetry: (reason, attempt, waitMs) => {
      progress.note(`attempt ${attempt} failed (${reason}); again in ${(waitMs / 1000).toFixed(1)} s`);
    },
  });

// Requests of `requestLines` lines: a retry repeats at most one request, and memory holds one.
let batch: SourceLine[] = [];
const skipped: SkippedRecord[] = [];
for await (const line of source.lines()) {
  if ('skipped' in line) {
    progress.skip();
    skipped.push(line);
    continue;
  }
  batch.push(line);
  if (batch.length >= requestLines) {
    await send(batch);
    batch = [];
  }
}
if (batch.length > 0) await send(batch);
failures?.end();
progress.finish();
for (const failure of firstFailures) {
  process.stderr.write(`  ${failure.origin}: ${failure.status} ${failure.message ?? ''}\n`);
}
for (const record of skipped.slice(0, 20))
  process.stderr.write(`  ${record.origin}: skipped, ${record.skipped}\n`);
process.exit(progress.failed > 0 ? 1 : 0);
