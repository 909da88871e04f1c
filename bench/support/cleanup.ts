/**
 * Cleanups to run if the benchmark is interrupted (Ctrl-C, SIGTERM) before its own `finally` blocks
 * can: stop the stack, drop scratch databases. `registerCleanup` returns the function that unregisters
 * it once the normal path has cleaned up.
 */
const pending = new Set<() => Promise<void>>();
let installed = false;

async function runPendingAndExit(signal: NodeJS.Signals): Promise<void> {
  process.stderr.write(`${signal}: cleaning up before exit\n`);
  await Promise.allSettled([...pending].map((cleanup) => cleanup()));
  process.exit(130);
}

export function registerCleanup(cleanup: () => Promise<void>): () => void {
  if (!installed) {
    installed = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void runPendingAndExit(signal));
    }
  }
  pending.add(cleanup);
  return () => {
    pending.delete(cleanup);
  };
}
