import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import type { Position } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { ChangeFeedHub, type FeedClient } from './change-feed-hub.js';
import type { ChangeRow } from '@portal/read-model-audit';
import { SseConnection, type SseSink } from './sse-connection.js';

/**
 * A connection answering each query with the next rows the test hands it, when the test hands them (the
 * SQL itself is covered by the int and e2e tests).
 */
class ScriptedRows {
  private readonly ready: ChangeRow[][] = [];
  private readonly waiting: ((rows: ChangeRow[]) => void)[] = [];

  answer(rows: ChangeRow[]): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(rows);
    else this.ready.push(rows);
  }

  asPool(): Pool {
    const query = () =>
      new Promise<{ rows: ChangeRow[] }>((resolve) => {
        const rows = this.ready.shift();
        if (rows) resolve({ rows });
        else
          this.waiting.push((answered) => {
            resolve({ rows: answered });
          });
      });
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
  readonly chunks: (string | Uint8Array)[] = [];
  readonly writableLength = 0;
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): void {}
  destroy(): void {}
  ids(): string[] {
    const text = this.chunks
      .map((chunk) => (typeof chunk === 'string' ? chunk : Buffer.from(chunk)))
      .join('');
    return text.match(/^id: .*$/gm) ?? [];
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function setUp(settings: { heartbeatMs?: number } = {}) {
  let seq = 0;
  const row = (readPrincipals: string[]): ChangeRow => {
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
  };
  const live = new ScriptedRows();
  const replays = new ScriptedRows();
  const projection = new Projection();
  const hub = new ChangeFeedHub(
    replays.asPool(),
    live.asPool(),
    projection,
    {
      heartbeatMs: settings.heartbeatMs ?? 60_000,
      maxBufferBytes: 1 << 20,
      replayMaxEvents: 100,
      maxConnectionMs: 60_000,
      batchIntervalMs: 0,
    },
    pino({ level: 'silent' }),
  );
  live.answer([]); // the head the hub starts from: none yet
  await hub.start();
  const connect = async (principals: string[]) => {
    const sink = new RecordingSink();
    const client: FeedClient = { connection: new SseConnection(sink, 1 << 20), principals };
    await hub.follow(client, { kind: 'now' });
    return { client, sink };
  };
  /** One hub read returning `readRows`, then none (caught up). */
  const project = async (readRows: ChangeRow[]) => {
    live.answer(readRows);
    projection.advance();
    await tick();
  };
  return { hub, row, connect, project, replays, live };
}

describe('ChangeFeedHub heartbeats', () => {
  it('writes one to every client each heartbeatMs, on the clock the hub is given', async () => {
    vi.useFakeTimers();
    try {
      const { hub, connect } = await setUp({ heartbeatMs: 300 });
      const clients = [await connect(['public']), await connect(['member:o1'])];
      const beats = () =>
        clients.map(({ sink }) => sink.chunks.filter((chunk) => chunk === ': heartbeat\n\n').length);
      vi.advanceTimersByTime(299);
      expect(beats()).toEqual([0, 0]);
      vi.advanceTimersByTime(1);
      expect(beats()).toEqual([1, 1]);
      vi.advanceTimersByTime(600);
      expect(beats()).toEqual([3, 3]);
      await hub.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ChangeFeedHub audiences', () => {
  it('sends each change to exactly the clients whose principals overlap its readers', async () => {
    const { hub, row, connect, project } = await setUp();
    const orgMember = await connect(['public', 'member:o1']);
    const sameSetOtherOrder = await connect(['member:o1', 'public', 'member:o1']);
    const stranger = await connect(['public', 'member:o2']);
    expect(hub.audienceCount).toBe(2);
    await project([row(['member:o1']), row(['public']), row(['member:o2'])]);
    expect(orgMember.sink.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    expect(sameSetOtherOrder.sink.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    expect(stranger.sink.ids()).toEqual(['id: 2.2', 'id: 3.3']);
    await hub.close();
  });

  it('keeps an audience for its remaining clients and forgets it with the last one', async () => {
    const { hub, row, connect, project } = await setUp();
    const first = await connect(['member:o1', 'member:o1']);
    const second = await connect(['member:o1']);
    expect(hub.audienceCount).toBe(1);
    hub.detach(first.client);
    expect(hub.audienceCount).toBe(1);
    await project([row(['member:o1'])]);
    expect(second.sink.ids()).toEqual(['id: 1.1']);
    hub.detach(second.client);
    expect(hub.audienceCount).toBe(0);
    expect(hub.connectedClients).toBe(0);
    const third = await connect(['member:o1', 'member:o1']);
    expect(hub.audienceCount).toBe(1);
    await project([row(['member:o1'])]);
    expect(third.sink.ids()).toEqual(['id: 2.2']);
    await hub.close();
  });

  it('never merges two different principal sets into one audience', async () => {
    const { hub, row, connect, project } = await setUp();
    const newline = await connect(['a\nb']);
    const comma = await connect(['a,b']);
    const pair = await connect(['a', 'b']);
    expect(hub.audienceCount).toBe(3);
    await project([row(['b'])]);
    expect(newline.sink.ids()).toEqual([]);
    expect(comma.sink.ids()).toEqual([]);
    expect(pair.sink.ids()).toEqual(['id: 1.1']);
    await hub.close();
  });

  it('encodes a read once for audiences that receive the same changes', async () => {
    const { hub, row, connect, project } = await setUp();
    const alice = await connect(['public', 'user:alice']);
    const bob = await connect(['public', 'user:bob']);
    const member = await connect(['public', 'user:carol', 'member:o9']);
    await project([row(['public']), row(['member:o9']), row(['public'])]);
    expect(alice.sink.ids()).toEqual(['id: 1.1', 'id: 3.3']);
    expect(bob.sink.ids()).toEqual(['id: 1.1', 'id: 3.3']);
    expect(member.sink.ids()).toEqual(['id: 1.1', 'id: 2.2', 'id: 3.3']);
    expect(alice.sink.chunks).toHaveLength(1);
    expect(bob.sink.chunks[0]).toBe(alice.sink.chunks[0]);
    expect(member.sink.chunks[0]).not.toBe(alice.sink.chunks[0]);
    await hub.close();
  });

  it('gives a resuming client the shared changes after its replay, without repeating any', async () => {
    const { hub, row, connect, project, replays } = await setUp();
    const watcher = await connect(['public']);
    const sink = new RecordingSink();
    const resuming: FeedClient = { connection: new SseConnection(sink, 1 << 20), principals: ['public'] };
    const missed = row(['public']);
    const following = hub.follow(resuming, { kind: 'resume', point: { seq: 0n, behind: 1 } });
    await tick();
    // Live while the replay's page is still being read: held for the resuming client.
    const liveChange = row(['public']);
    await project([liveChange]);
    expect(watcher.sink.ids()).toEqual(['id: 2.2']);
    expect(sink.ids()).toEqual([]);
    // The page holds the missed change and, read later, the live one too.
    replays.answer([missed, liveChange]);
    await following;
    expect(sink.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    await project([row(['public'])]);
    expect(sink.ids()).toEqual(['id: 1.1', 'id: 2.2', 'id: 3.3']);
    expect(watcher.sink.ids()).toEqual(['id: 2.2', 'id: 3.3']);
    await hub.close();
  });

  it('reads up to what is committed before a reset, so no change older than the reset follows it', async () => {
    const { hub, row, project } = await setUp();
    const sink = new RecordingSink();
    const client: FeedClient = { connection: new SseConnection(sink, 1 << 20), principals: ['public'] };
    // Projected, but not yet read by the hub when the client's reset is decided.
    const older = row(['public']);
    const following = hub.follow(client, { kind: 'unknown' });
    await project([older]);
    await following;
    expect(sink.ids()).toEqual(['id: 1.1']);
    expect(String(sink.chunks[0])).toContain('event: reset');
    expect(String(sink.chunks[0])).toContain('"position":"1.1"');
    await project([row(['public'])]);
    expect(sink.ids()).toEqual(['id: 1.1', 'id: 2.2']);
    expect(sink.chunks).toHaveLength(2);
    await hub.close();
  });
});
