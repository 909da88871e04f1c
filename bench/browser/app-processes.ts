import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { registerCleanup } from '../support/cleanup.js';
import { appProcessArgs } from '../../test/support/stack.js';

const repoRoot = new URL('../../', import.meta.url).pathname;
const ERROR_LEVEL = 50;

/** A line of an app's JSON log: its message and whatever fields it carries (a port, a rebuild's progress). */
export interface AppLogEntry {
  readonly msg?: string;
  readonly port?: number;
  readonly [field: string]: unknown;
}

export interface AppProcess {
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * One of the repository's apps as `npm start` runs it (`node --import tsx <script>`), against the
 * benchmark's database. Its pino lines are read for its whole life (an undrained pipe would block it);
 * error lines go to stderr, and `onLine` sees every entry.
 */
const FREE_METRICS_PORTS = {
  METRICS_PORT: '0',
  PROJECTOR_METRICS_PORT: '0',
  UPLOAD_WORKER_METRICS_PORT: '0',
};

export function startApp(
  script: string,
  env: NodeJS.ProcessEnv,
  onLine: (entry: AppLogEntry) => void = () => undefined,
): AppProcess {
  // As the test stack does: `STACK_NODE_ARGS=--cpu-prof --cpu-prof-dir=…` profiles the apps of a bench.
  const child = spawn(process.execPath, appProcessArgs(script), {
    cwd: repoRoot,
    // Free metrics ports: a benchmark may run beside an `npm start` holding the default ones.
    env: { ...process.env, ...FREE_METRICS_PORTS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(process.stderr);
  createInterface({ input: child.stdout }).on('line', (line) => {
    let entry: AppLogEntry & { level?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      process.stderr.write(`${line}\n`);
      return;
    }
    if ((entry.level ?? 0) >= ERROR_LEVEL) process.stderr.write(`${line}\n`);
    onLine(entry);
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const unregister = registerCleanup(stop);
  return {
    child,
    stop: async () => {
      await stop();
      unregister();
    },
  };
}

/** Runs `scripts/migrate.ts` (extensions, event store, read models, API tables) and waits for it. */
export async function migrate(env: NodeJS.ProcessEnv): Promise<void> {
  const migration = startApp('scripts/migrate.ts', env);
  const [code] = (await once(migration.child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`migration failed with ${String(code)}`);
}

/** Starts the API on a free port and resolves with its base URL once it listens. */
export async function startApi(env: NodeJS.ProcessEnv): Promise<{ app: AppProcess; baseUrl: string }> {
  let portOf: (port: number) => void = () => undefined;
  const app = startApp('apps/api/src/main.ts', { ...env, PORT: '0' }, (entry) => {
    if (entry.msg === 'listening' && typeof entry.port === 'number') portOf(entry.port);
  });
  const port = await new Promise<number>((resolve, reject) => {
    portOf = resolve;
    // After `listening` this rejects a settled promise: nothing happens.
    app.child.once('exit', (code) => {
      reject(new Error(`api exited with ${String(code)} before listening`));
    });
  });
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}
