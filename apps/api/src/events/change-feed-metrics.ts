import { Counter, Gauge, type Registry } from '@portal/platform';

/**
 * Why a change-feed stream ended: `client` (the client closed it), `server` (its lifetime ran out, or
 * the API shut down), `dropped` (it fell too far behind: its unsent bytes passed SSE_MAX_BUFFER_BYTES,
 * or its replay failed).
 */
export type FeedDisconnectReason = 'client' | 'server' | 'dropped';

export interface ChangeFeedObserver {
  disconnected(reason: FeedDisconnectReason): void;
}

export const UNOBSERVED_FEED: ChangeFeedObserver = { disconnected: () => undefined };

/** The feed's clients, read at scrape time, and its ended streams by reason. */
export function changeFeedMetrics(registry: Registry, connectedClients: () => number): ChangeFeedObserver {
  new Gauge({
    name: 'portal_sse_clients',
    help: 'Clients connected to the change feed (GET /api/v1/events) of this API process.',
    registers: [registry],
    collect() {
      this.set(connectedClients());
    },
  });
  const disconnects = new Counter({
    name: 'portal_sse_disconnects_total',
    help: 'Change-feed streams that ended, by reason: client, server (lifetime or shutdown), dropped (too slow).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const byReason = {
    client: disconnects.labels('client'),
    server: disconnects.labels('server'),
    dropped: disconnects.labels('dropped'),
  };
  for (const counter of Object.values(byReason)) counter.inc(0);
  return {
    disconnected(reason) {
      byReason[reason].inc();
    },
  };
}
