import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { nodeFlagsOf } from '../../apps/projector/src/node-flags.js';

/**
 * The whole service as a client meets it: a fresh database, the schemas migrated, and the three apps
 * started as separate processes exactly as `npm start` runs them. Tests speak HTTP to `baseUrl` only.
 */
export interface Stack {
  readonly baseUrl: string;
  /** `http://127.0.0.1:<port>/metrics` of each app's metrics listener (each on a free port). */
  readonly metricsUrls: Readonly<Record<AppName, string>>;
  readonly databaseUrl: string;
  /**
   * Runs one of the service's command-line scripts (e.g. `apps/projector/src/rebuild.ts`) to its end,
   * with the stack's configuration and `extraEnv` on top; rejects when it exits with another code than 0.
   */
  runScript(script: string, extraEnv?: NodeJS.ProcessEnv): Promise<void>;
  /** The environment every app and script of the stack gets (its database, queues, ports). */
  readonly env: NodeJS.ProcessEnv;
  /** Settles with the app's exit code once its process ended (a halted projector exits 1). */
  exited(app: RestartableApp): Promise<number | null>;
  /**
   * Starts the app again, as a supervisor restarts a process that exited (stopping it first if it
   * still runs); resolves once it listens for metrics, with `metricsUrls` updated.
   */
  restart(app: RestartableApp): Promise<void>;
  /** Stops the app (SIGTERM, as a deployment scales it down) until `restart`. */
  stopApp(app: RestartableApp): Promise<void>;
  stop(): Promise<void>;
}

export type AppName = 'api' | 'projector' | 'uploadWorker';
/** The apps a test may restart: the API's address would change with it. */
export type RestartableApp = Exclude<AppName, 'api'>;

const appScripts: Record<RestartableApp, string> = {
  projector: 'apps/projector/src/main.ts',
  uploadWorker: 'apps/upload-worker/src/main.ts',
};

/** The stacks' JWT key; tests mint expired tokens with it (support/tokens.ts). */
export const E2E_JWT_SECRET = 'e2e-only-jwt-secret-0123456789abcdef';

const repoRoot = new URL('../../', import.meta.url).pathname;
const STARTUP_TIMEOUT_MS = 60_000;

function adminUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_test';
}

async function createDatabase(): Promise<string> {
  const name = `portal_e2e_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * node's arguments for `script` (a path from the repository's root): the flags `npm start` gives it
 * (`nodeFlagsOf`), then `STACK_NODE_ARGS`, node options for each app process, e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` to profile the apps under a benchmark (node refuses `--cpu-prof` in
 * NODE_OPTIONS). The benches' own app launcher starts its apps the same way.
 */
export function appProcessArgs(script: string): string[] {
  const given = process.env.STACK_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return [...nodeFlagsOf(script), ...given, '--import', 'tsx', script];
}

function run(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, appProcessArgs(script), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const ERROR_LEVEL = 50;

/**
 * Reads a child's pino lines for the process's life (an undrained stdout pipe would block it once
 * full), passes errors on to the test's stderr, and hands every entry to `onEntry`.
 */
interface LogEntry {
  readonly level?: number;
  readonly msg?: string;
  readonly port?: number;
  readonly metricsPort?: number;
}

function readLogs(child: ChildProcess, onEntry: (entry: LogEntry) => void = () => undefined): void {
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  lines.on('line', (line) => {
    let entry: LogEntry;
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      process.stderr.write(`${line}\n`);
      return;
    }
    if ((entry.level ?? 0) >= ERROR_LEVEL) process.stderr.write(`${line}\n`);
    onEntry(entry);
  });
}

/** Resolves with a metrics port once its app logs it. */
function metricsPortWatch(): { readonly port: Promise<number>; readonly onEntry: (entry: LogEntry) => void } {
  let found: (port: number) => void = () => undefined;
  const port = new Promise<number>((resolve) => {
    found = resolve;
  });
  return {
    port,
    onEntry: (entry) => {
      if (entry.msg === 'metrics listening' && typeof entry.metricsPort === 'number')
        found(entry.metricsPort);
    },
  };
}

/** Resolves with the API's port once it logs `listening`; rejects if it exits first. */
function listeningPort(api: ChildProcess, onEntry: (entry: LogEntry) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    readLogs(api, (entry) => {
      onEntry(entry);
      if (entry.msg === 'listening' && typeof entry.port === 'number') resolve(entry.port);
    });
    api.once('exit', (code) => {
      reject(new Error(`api exited with ${String(code)} before listening`));
    });
  });
}

async function runToEnd(script: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child = run(script, env);
  child.stderr?.pipe(process.stderr);
  readLogs(child);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} failed with ${String(code)}`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process ended (at once if it already has). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export async function startStack(extraEnv: NodeJS.ProcessEnv = {}): Promise<Stack> {
  const databaseUrl = await createDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'info',
    PROJECTOR_BATCH_SIZE: '200',
    // Stacks share one Redis: each gets its own queues, so no worker takes another stack's jobs.
    QUEUE_PREFIX: `portal-e2e-${new URL(databaseUrl).pathname.slice(1)}`,
    // The tests are the proxy: a test may name its client address with X-Forwarded-For, so the sign-in
    // rate limit of one test's address does not lock every other test (all on 127.0.0.1) out.
    TRUST_PROXY: 'loopback',
    // Every e2e file signs its users up from 127.0.0.1; auth.e2e tests the sign-up limit on a stack of its own.
    SIGN_UP_MAX_PER_ADDRESS: '1000000',
    // A browser app's origin the CORS and CSRF tests can name.
    CORS_ORIGINS: 'http://portal-app.test',
    // Known to the tests, so they can forge what an attacker cannot: an expired token with the right key.
    JWT_SECRET: E2E_JWT_SECRET,
    // The webhook tests' receivers listen on 127.0.0.1 over plain http (docs/webhooks.md).
    WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
    // One key per stack, as a deployment has: its API seals webhook secrets and its worker opens them.
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    // Stacks run side by side: every metrics listener takes a free port, which it logs.
    METRICS_PORT: '0',
    PROJECTOR_METRICS_PORT: '0',
    UPLOAD_WORKER_METRICS_PORT: '0',
    ...extraEnv,
  };
  try {
    await runToEnd('scripts/migrate.ts', env);
  } catch (error) {
    await dropDatabase(databaseUrl);
    throw error;
  }
  const children = [
    run('apps/projector/src/main.ts', env),
    run('apps/upload-worker/src/main.ts', env),
    run('apps/api/src/main.ts', env),
  ];
  for (const child of children) child.stderr?.pipe(process.stderr);
  const [projector, worker, api] = children as [ChildProcess, ChildProcess, ChildProcess];
  const metricsPorts = {
    api: metricsPortWatch(),
    projector: metricsPortWatch(),
    uploadWorker: metricsPortWatch(),
  };
  readLogs(projector, metricsPorts.projector.onEntry);
  readLogs(worker, metricsPorts.uploadWorker.onEntry);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => {
      reject(new Error('api did not start in time'));
    }, STARTUP_TIMEOUT_MS).unref(),
  );
  let port: number;
  let apiMetrics: number;
  let projectorMetrics: number;
  let workerMetrics: number;
  try {
    port = await Promise.race([listeningPort(api, metricsPorts.api.onEntry), timeout]);
    [apiMetrics, projectorMetrics, workerMetrics] = await Promise.race([
      Promise.all([metricsPorts.api.port, metricsPorts.projector.port, metricsPorts.uploadWorker.port]),
      timeout,
    ]);
  } catch (error) {
    // A stack that never came up leaves nothing behind: no app process, no database.
    await Promise.all(children.map(stopProcess));
    await dropDatabase(databaseUrl);
    throw error;
  }
  const metricsUrl = (metricsPort: number): string => `http://127.0.0.1:${metricsPort}/metrics`;
  const metricsUrls: Record<AppName, string> = {
    api: metricsUrl(apiMetrics),
    projector: metricsUrl(projectorMetrics),
    uploadWorker: metricsUrl(workerMetrics),
  };
  const running: Record<RestartableApp, ChildProcess> = { projector, uploadWorker: worker };
  const exitOf = (child: ChildProcess): Promise<number | null> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.exitCode)
      : once(child, 'exit').then(([code]) => code as number | null);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    metricsUrls,
    databaseUrl,
    env,
    runScript: (script, extraEnv = {}) => runToEnd(script, { ...env, ...extraEnv }),
    exited: (app) => exitOf(running[app]),
    restart: async (app) => {
      await stopProcess(running[app]);
      const child = run(appScripts[app], env);
      child.stderr?.pipe(process.stderr);
      running[app] = child;
      const watch = metricsPortWatch();
      readLogs(child, watch.onEntry);
      const exited = exitOf(child).then((code) => {
        throw new Error(`${app} exited with ${String(code)} before listening for metrics`);
      });
      // It may exit much later (a halt): only the race below may hear of it.
      exited.catch(() => undefined);
      metricsUrls[app] = metricsUrl(await Promise.race([watch.port, exited]));
    },
    stopApp: (app) => stopProcess(running[app]),
    stop: async () => {
      await Promise.all([api, ...Object.values(running)].map(stopProcess));
      await dropDatabase(databaseUrl);
    },
  };
}
