import type { EventStore } from '@portal/domain';
import type { PortalScenario } from './scenario.js';

export interface BackgroundWriter {
  /** Events appended so far. */
  written(): number;
  /** Stops after the append in flight; rejects if an append failed. */
  stop(): Promise<void>;
}

/** Appends scenario events one after another until stopped: writes going on while the test acts. */
export function startWriter(scenario: PortalScenario, store: EventStore): BackgroundWriter {
  const stopping = new AbortController();
  let count = 0;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await scenario.appendTo(store, 1);
      count += 1;
    }
  })();
  return {
    written: () => count,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
