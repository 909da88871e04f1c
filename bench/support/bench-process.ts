import { spawn } from 'node:child_process';
import { once } from 'node:events';

const repoRoot = new URL('../../', import.meta.url).pathname;
/** Time to stop a stack and drop databases after SIGINT, before the script is killed. */
const CLEANUP_GRACE_MS = 20_000;

export interface BenchProcessOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a bench script as `npx tsx` would (node with tsx's loader, from the repository root) and collects
 * its output. `BENCH_*` variables of this environment are left out, so a run is sized by `args` alone.
 * After `timeoutMs` the script gets SIGINT, which makes it stop its stack and drop its databases, and
 * SIGKILL if it has not ended after a grace period.
 */
export async function runBenchScript(
  script: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<BenchProcessOutcome> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BENCH_')));
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let killer: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    stderr += `\n(timed out after ${timeoutMs} ms: SIGINT)\n`;
    child.kill('SIGINT');
    killer = setTimeout(() => child.kill('SIGKILL'), CLEANUP_GRACE_MS);
  }, timeoutMs);
  // 'close', not 'exit': the output pipes are read to their end.
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** The `result` of the script's one JSON line for `bench` (support/table.ts `printJsonLine`). */
export function benchResult(outcome: BenchProcessOutcome, bench: string): unknown {
  const lines = outcome.stdout.split('\n').filter((line) => line.startsWith('{"bench":'));
  if (lines.length !== 1 || lines[0] === undefined) {
    throw new Error(`expected one {"bench":…} line, found ${lines.length}`);
  }
  const parsed = JSON.parse(lines[0]) as { bench?: unknown; result?: unknown };
  if (parsed.bench !== bench)
    throw new Error(`the JSON line is of bench ${String(parsed.bench)}, not ${bench}`);
  return parsed.result;
}
