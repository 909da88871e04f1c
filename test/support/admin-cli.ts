import { spawn } from 'node:child_process';
import type { Stack } from './stack.js';

const repoRoot = new URL('../../', import.meta.url).pathname;

export interface AdminRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The operator the tests run the console as: what it records must name them. */
export const TEST_OPERATOR = 'e2e-operator@console';

/**
 * `npm run admin -- …` as an operator runs it, with the stack's configuration (its database, Redis
 * queues) in the environment. Never rejects for a non-zero exit: the tests check the codes.
 */
export function runAdmin(
  stack: Stack,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<AdminRun> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
      cwd: repoRoot,
      env: { ...stack.env, PORTAL_OPERATOR: TEST_OPERATOR, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => {
      done({ code, stdout, stderr });
    });
  });
}

/** Runs with `--json` and parses the answer; fails the test with the output when the code differs. */
export async function adminJson<T = Record<string, unknown>>(
  stack: Stack,
  args: readonly string[],
  expectedCode = 0,
): Promise<T> {
  const result = await runAdmin(stack, [...args, '--json']);
  if (result.code !== expectedCode) {
    throw new Error(
      `admin ${args.join(' ')} exited ${String(result.code)}, expected ${expectedCode}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return JSON.parse(result.stdout) as T;
}
