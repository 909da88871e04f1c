import { startStack, type Stack } from '../../test/support/stack.js';
import { registerCleanup } from './cleanup.js';

/** The end-to-end tests' stack (fresh database, three app processes), stopped even on Ctrl-C. */
export async function startBenchStack(env: Record<string, string>): Promise<Stack> {
  const stack = await startStack(env);
  const unregister = registerCleanup(() => stack.stop());
  return {
    ...stack,
    stop: async () => {
      await stack.stop();
      unregister();
    },
  };
}
