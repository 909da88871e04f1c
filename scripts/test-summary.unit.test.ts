import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeTestRun, type VitestFileResult, type VitestJsonReport } from './test-summary.js';

const root = '/repo';

function file(name: string, fields: Partial<VitestFileResult> & { tests?: string[] }): VitestFileResult {
  const { tests = [], ...rest } = fields;
  return {
    name: join(root, name),
    status: tests.includes('failed') ? 'failed' : 'passed',
    message: '',
    assertionResults: tests.map((status) => ({ status })),
    ...rest,
  };
}

function summary(testResults: VitestFileResult[], exitCode = 0): string[] {
  return summarizeTestRun({ report: { testResults }, exitCode, root });
}

describe('summarizeTestRun', () => {
  it('counts passed, failed and skipped tests of a clean run', () => {
    expect(summary([file('a.test.ts', { tests: ['passed', 'passed', 'skipped'] })])).toEqual([
      '1 test files, 0 failed; tests: 2 passed, 0 failed, 1 skipped',
    ]);
  });

  it('names a file that failed to load with its message and prints the exit code', () => {
    const lines = summary(
      [
        file('ok.test.ts', { tests: ['passed'] }),
        file('broken.test.ts', { status: 'failed', message: 'Cannot find module x\n    at …' }),
      ],
      1,
    );
    expect(lines).toEqual([
      '2 test files, 1 failed; tests: 1 passed, 0 failed, 0 skipped',
      'failed files:',
      '  broken.test.ts: Cannot find module x',
      'vitest exited with code 1',
    ]);
  });

  it('calls the tests of a file whose beforeAll threw "not run", not skipped', () => {
    const lines = summary(
      [
        file('hook.test.ts', { status: 'failed', message: 'db is down', tests: ['skipped', 'skipped'] }),
        file('other.test.ts', { tests: ['passed', 'skipped'] }),
      ],
      1,
    );
    expect(lines[0]).toBe('2 test files, 1 failed; tests: 1 passed, 0 failed, 2 not run, 1 skipped');
    expect(lines).toContain('  hook.test.ts: db is down; 2 tests not run');
  });

  it('says a file failed outside its tests when the report carries no message for it', () => {
    const lines = summary([file('suite.test.ts', { status: 'failed', tests: ['skipped'] })], 1);
    expect(lines).toContain(
      '  suite.test.ts: 1 test not run; failed outside its tests (a hook or suite); see the output above',
    );
  });

  it('lists a file with failing tests with their count', () => {
    const lines = summary([file('f.test.ts', { tests: ['failed', 'passed', 'failed'] })], 1);
    expect(lines[0]).toBe('1 test files, 1 failed; tests: 1 passed, 2 failed, 0 skipped');
    expect(lines).toContain('  f.test.ts: 2 tests failed');
  });

  it('says the run failed when it failed without a failed file or test (errors outside the tests)', () => {
    expect(summary([file('a.test.ts', { tests: ['passed'] })], 1)).toEqual([
      '1 test files, 0 failed; tests: 1 passed, 0 failed, 0 skipped',
      'the run FAILED with no failed test: vitest reported errors outside the tests (see above)',
      'vitest exited with code 1',
    ]);
  });

  it('says so when vitest wrote no report', () => {
    expect(summarizeTestRun({ report: undefined, exitCode: 1, root })).toEqual([
      'no test report was written; vitest exited with code 1',
    ]);
  });
});

// The report shape above is vitest's: run vitest on a throwaway directory with a file that fails to
// load and a describe whose beforeAll throws, and summarize its real JSON report.
describe('summarizeTestRun on a real vitest report', () => {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  let dir = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'test-summary-'));
    // globals: the files live outside the repository, where `import 'vitest'` would not resolve.
    await writeFile(join(dir, 'load.test.js'), "throw new Error('cannot load this file');\n");
    await writeFile(
      join(dir, 'hook.test.js'),
      "describe('group', () => {\n  beforeAll(() => { throw new Error('beforeAll broke'); });\n" +
        "  it('a', () => {});\n  it('b', () => {});\n});\n",
    );
    await writeFile(join(dir, 'ok.test.js'), "it('passes', () => {});\nit.skip('skipped', () => {});\n");
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts both broken files as failed and their tests as not run', async () => {
    const reportPath = join(dir, 'report.json');
    const exitCode = await runVitest(repoRoot, [
      'run',
      '--root',
      dir,
      '--globals',
      '--reporter=json',
      `--outputFile.json=${reportPath}`,
    ]);
    const report = JSON.parse(await readFile(reportPath, 'utf8')) as VitestJsonReport;

    expect(summarizeTestRun({ report, exitCode, root: dir })).toEqual([
      '3 test files, 2 failed; tests: 1 passed, 0 failed, 2 not run, 1 skipped',
      'failed files:',
      '  hook.test.js: 2 tests not run; failed outside its tests (a hook or suite); see the output above',
      '  load.test.js: cannot load this file',
      'vitest exited with code 1',
    ]);
  }, 60_000);
});

function runVitest(repoRoot: string, args: string[]): Promise<number> {
  // The child must not believe it runs inside this vitest worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'node_modules/vitest/vitest.mjs'), ...args],
      { cwd: repoRoot, env },
      (error) => {
        resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0);
      },
    );
  });
}
