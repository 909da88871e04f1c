import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { Position } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { ChangeFeedHub, type FeedClient } from './change-feed-hub.js';
import type { ChangeRow } from './change-queries.js';
import { SseConnection, type SseSink } from './sse-connection.js';

/** The hub's own connection, answering each read with the rows queued for it (the SQL is the int tests'). */
class QueuedRows {
  private readonly queued: ChangeRow[][] = [];

  push(rows: ChangeRow[]): void {
    this.queued.push(rows);
  }

  asPool(): Pool {
    const query = () => Promise.resolve({ rows: this.queued.shift() ?? [] });
    return { query, end: () => Promise.resolve() } as unknown as Pool;
  }
}

/** A projection whose advance the test triggers. */
class Projection {
  private readonly listeners = new Set<(position: Position) => void>();

  onAdvance(listener: (position: Position) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  advance(): void {
    for (const listener of this.listeners) listener({ commit: 0n, prepare: 0n });
  }
}

class RecordingSink implements SseSink {
  readonly written: string[] = [];
  readonly chunks: (string | Uint8Array)[] = [];
  readonly writableLength = 0;
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(chunk);
    this.written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }
  end(): void {}
  destroy(): void {}
}

let seq = 0;
function row(readPrincipals: string[]): ChangeRow {
  seq += 1;
  return {
    seq: String(seq),
    position: `${seq}.${seq}`,
    type: 'PortalObjectUpdated',
    object_id: '7b0d4f7e-8d6a-4bb8-9a41-3f1b1d1f0c11',
    kind: 'catalog',
    revision: '1',
    occurred_at: new Date('2026-11-22T00:00:00Z'),
    actor_id: null,
    read_principals: readPrincipals,
  };
}

function setUp() {
  const rows = new QueuedRows();
  const projection = new Projection();
  const hub = new ChangeFeedHub(
    rows.asPool(),
    rows.asPool(),
    projection,
    {
      heartbeatMs: 60_000,
      maxBufferBytes: 1 << 20,
      replayMaxEvents: 100,
      maxConnectionMs: 60_000,
      batchIntervalMs: 0,
    },
    pino({ level: 'silent' }),
  );
  const connect = async (principals: string[]) => {
    const sink = new RecordingSink();
    const client: FeedClient = { connection: new SseConnection(sink, 1 << 20), principals };
    await hub.follow(client, { kind: 'now' });
    return { client, sink, ids: () => sink.written.join('').match(/^id: .*$/gm) ?? [] };
  };
  /** Queues one read's rows, wakes the hub and lets its read finish. */
  const project = async (readRows: ChangeRow[]) => {
    rows.push(readRows);
    projection.advance();
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  return { hub, connect, project };
}

describe('ChangeFeedHub audiences', () => {
  it('sends each change to exactly the clients whose principals overlap its readers', async () => {
    const { hub, connect, project } = setUp();
    await hub.start();
    const orgMember = await connect(['public', 'member:o1']);
    const sameSetOtherOrder = await connect(['member:o1', 'public', 'member:o1']);
    const stranger = await connect(['public', 'member:o2']);
    await project([row(['member:o1']), row(['public']), row(['member:o2'])]);
    expect(orgMember.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    expect(sameSetOtherOrder.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    expect(stranger.ids()).toEqual(['id: 2.2', 'id: 3.3']);
    await hub.close();
  });

  it('keeps an audience for its remaining clients and forgets it with the last one', async () => {
    const { hub, connect, project } = setUp();
    await hub.start();
    const first = await connect(['member:o1', 'member:o1']);
    const second = await connect(['member:o1']);
    hub.detach(first.client);
    await project([row(['member:o1'])]);
    expect(first.ids()).toEqual([]);
    expect(second.ids()).toEqual(['id: 4.4']);
    hub.detach(second.client);
    expect(hub.connectedClients).toBe(0);
    // A client joining afterwards gets a fresh audience and its changes.
    const third = await connect(['member:o1', 'member:o1']);
    await project([row(['member:o1'])]);
    expect(third.ids()).toEqual(['id: 5.5']);
    await hub.close();
  });

  it('never merges two different principal sets into one audience', async () => {
    const { hub, connect, project } = setUp();
    await hub.start();
    const joined = await connect(['a\nb']);
    const pair = await connect(['a', 'b']);
    await project([row(['b'])]);
    expect(joined.ids()).toEqual([]);
    expect(pair.ids()).toEqual(['id: 6.6']);
    await hub.close();
  });

  it('encodes a read once for audiences that receive the same changes', async () => {
    const { hub, connect, project } = setUp();
    await hub.start();
    const alice = await connect(['public', 'user:alice']);
    const bob = await connect(['public', 'user:bob']);
    const aliceOnly = await connect(['public', 'user:alice', 'member:o9']);
    await project([row(['public']), row(['member:o9'])]);
    expect(alice.sink.chunks).toHaveLength(1);
    expect(bob.sink.chunks[0]).toBe(alice.sink.chunks[0]);
    expect(aliceOnly.ids()).toEqual(['id: 7.7', 'id: 8.8']);
    expect(aliceOnly.sink.chunks[0]).not.toBe(alice.sink.chunks[0]);
    await hub.close();
  });
});
