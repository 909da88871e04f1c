import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const repoRoot = new URL('../../../../', import.meta.url).pathname;

export interface LogEntry {
  readonly level?: number;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/** The upload worker as `npm start` runs it: its own process, configured by environment only. */
export class WorkerProcess {
  readonly entries: LogEntry[] = [];
  readonly stderr: string[] = [];
  private readonly child: ChildProcess;
  private readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'apps/upload-worker/src/main.ts'], {
      cwd: repoRoot,
      // Several workers may run at once: each takes a free metrics port unless told otherwise.
      env: { UPLOAD_WORKER_METRICS_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exit = once(this.child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
    const echo = process.env.TEST_LOG_LEVEL !== undefined;
    // Read every line for the process's life: an undrained pipe would block the worker once full.
    createInterface({ input: this.child.stdout ?? process.stdin }).on('line', (line) => {
      if (echo) process.stderr.write(`${line}\n`);
      try {
        this.entries.push(JSON.parse(line) as LogEntry);
      } catch {
        this.entries.push({ msg: line });
      }
    });
    // stderr holds only the AWS SDK's Node 20 notice unless something broke; kept for failure messages.
    createInterface({ input: this.child.stderr ?? process.stdin }).on('line', (line) => {
      if (echo) process.stderr.write(`${line}\n`);
      this.stderr.push(line);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async waitForLog(msg: string, timeoutMs = 30_000): Promise<LogEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.entries.find((entry) => entry.msg === msg);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `the worker exited before logging "${msg}": ${JSON.stringify(this.entries.slice(-5))} ${this.stderr.slice(-10).join('\n')}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`the worker did not log "${msg}" in time`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exit;
  }

  /** SIGTERM, then SIGKILL if it does not stop in time: never leaves a process behind. */
  async stop(timeoutMs = 30_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exit;
    clearTimeout(timer);
  }
}
