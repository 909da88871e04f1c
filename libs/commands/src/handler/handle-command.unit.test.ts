import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ConcurrencyError,
  DomainError,
  eventMetadata,
  type Decider,
  type EventStore,
  type ReadStreamOptions,
  type RecordedEvent,
} from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { handleCommand, type CommandHandling, type CommandRequest } from './handle-command.js';
import type { RetryPolicy } from './retry-policy.js';

/** A counter with a ceiling: enough rules to tell a fresh decision from a stale one. */
interface Added {
  readonly type: 'Added';
  readonly data: { readonly by: number };
}
interface Add {
  readonly type: 'Add';
  readonly data: { readonly by: number; readonly ceiling: number };
}
interface Counter {
  readonly total: number;
}

const counter: Decider<Add, Added, Counter> = {
  initialState: { total: 0 },
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide: ({ data }, state) => {
    if (state.total + data.by > data.ceiling) {
      throw new DomainError('INVALID_STATE', `${state.total} + ${data.by} is over ${data.ceiling}`);
    }
    return data.by === 0 ? [] : [{ type: 'Added', data: { by: data.by } }];
  },
};

const add = (by: number, ceiling = 100): Add => ({ type: 'Add', data: { by, ceiling } });
const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

/** The in-memory store, counting stream reads. */
class CountingStore extends InMemoryEventStore {
  reads = 0;
  override readStream(streamId: string, options?: ReadStreamOptions): Promise<readonly RecordedEvent[]> {
    this.reads += 1;
    return super.readStream(streamId, options);
  }
}

interface Setup {
  readonly store: CountingStore;
  readonly handling: CommandHandling;
  readonly streamId: string;
  /** Pauses the retry policy asked for, after each lost attempt. */
  readonly pauses: number[];
}

function setup(attempts = 20): Setup {
  const store = new CountingStore();
  const pauses: number[] = [];
  const retry: RetryPolicy = {
    attempts,
    pauseMs: (failed) => {
      pauses.push(failed);
      return 0;
    },
  };
  return {
    store,
    handling: { store, newId: randomUUID, retry },
    streamId: `counter-${randomUUID()}`,
    pauses,
  };
}

/** Another writer's event on the stream, appended at whatever revision it has now. */
async function rival(store: EventStore, streamId: string, by: number): Promise<void> {
  const revision = await store.streamRevision(streamId);
  await store.append(streamId, [{ id: randomUUID(), type: 'Added', data: { by }, metadata }], {
    expectedRevision: revision ?? 'no_stream',
  });
}

function request(streamId: string, rest: Partial<CommandRequest<Add, Added, Counter>>) {
  return { streamId, decider: counter, command: add(1), metadata, ...rest };
}

async function totalOf(store: EventStore, streamId: string): Promise<number[]> {
  return (await store.readStream(streamId)).map((event) => (event.data as Added['data']).by);
}

describe('handleCommand', () => {
  it('appends what the decider decided, with the metadata, at the revision it read', async () => {
    const { store, handling, streamId } = setup();
    await rival(store, streamId, 2);
    const result = await handleCommand(handling, request(streamId, { command: add(3) }));
    expect(result.events).toEqual([{ type: 'Added', data: { by: 3 } }]);
    expect(result.before.state).toEqual({ total: 2 });
    expect(result.state).toEqual({ total: 5 });
    expect(result.revision).toBe(1n);
    const recorded = await store.readStream(streamId);
    expect(recorded.at(-1)?.metadata).toEqual(metadata);
    expect(result.position).toEqual(recorded.at(-1)?.position);
  });

  it('appends nothing for a decision without events, and reports the revision as it is', async () => {
    const { store, handling, streamId } = setup();
    await rival(store, streamId, 2);
    const result = await handleCommand(handling, request(streamId, { command: add(0) }));
    expect(result).toMatchObject({ events: [], position: null, revision: 0n, state: { total: 2 } });
    expect(await totalOf(store, streamId)).toEqual([2]);
  });

  it('decides again on a fresh read when another writer got in first and no revision was expected', async () => {
    const { store, handling, streamId, pauses } = setup();
    const seen: number[] = [];
    const result = await handleCommand(
      handling,
      request(streamId, {
        command: async (stream) => {
          seen.push(stream.state.total);
          if (seen.length === 1) await rival(store, streamId, 10);
          return add(1);
        },
      }),
    );
    expect(seen).toEqual([0, 10]);
    expect(pauses).toEqual([1]);
    expect(result.before.state).toEqual({ total: 10 });
    expect(await totalOf(store, streamId)).toEqual([10, 1]);
  });

  it("refuses with the decider's own error when the fresh state no longer allows the command", async () => {
    const { store, handling, streamId } = setup();
    let first = true;
    const racing = handleCommand(
      handling,
      request(streamId, {
        command: async () => {
          if (first) await rival(store, streamId, 95);
          first = false;
          return add(10);
        },
      }),
    );
    await expect(racing).rejects.toMatchObject({ code: 'INVALID_STATE', message: '95 + 10 is over 100' });
    expect(await totalOf(store, streamId)).toEqual([95]);
  });

  it('gives up with the concurrency error once every attempt of the policy lost', async () => {
    const { store, handling, streamId, pauses } = setup(4);
    let attempts = 0;
    const losing = handleCommand(
      handling,
      request(streamId, {
        command: async () => {
          attempts += 1;
          await rival(store, streamId, 1);
          return add(1);
        },
      }),
    );
    await expect(losing).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(losing).rejects.toMatchObject({ code: 'CONCURRENCY_CONFLICT' });
    expect(attempts).toBe(4);
    expect(pauses).toEqual([1, 2, 3]);
    expect(await totalOf(store, streamId)).toEqual([1, 1, 1, 1]);
  });

  it('answers STALE_REVISION without retrying when the expected revision is lost at the append', async () => {
    const { store, handling, streamId, pauses } = setup();
    await rival(store, streamId, 1);
    let attempts = 0;
    const conditional = handleCommand(
      handling,
      request(streamId, {
        expectedRevision: 0n,
        command: async () => {
          attempts += 1;
          await rival(store, streamId, 1);
          return add(5);
        },
      }),
    );
    await expect(conditional).rejects.toMatchObject({
      code: 'STALE_REVISION',
      message: 'the object changed since revision 0; read it again',
    });
    await expect(conditional).rejects.not.toBeInstanceOf(ConcurrencyError);
    expect(attempts).toBe(1);
    expect(pauses).toEqual([]);
    expect(await totalOf(store, streamId)).toEqual([1, 1]);
  });

  it('refuses a stale expected revision before deciding, even a command that would change nothing', async () => {
    const { store, handling, streamId } = setup();
    await rival(store, streamId, 1);
    await rival(store, streamId, 1);
    const stale = handleCommand(handling, request(streamId, { expectedRevision: 0n, command: add(0) }));
    await expect(stale).rejects.toMatchObject({
      code: 'STALE_REVISION',
      message: 'the object is at revision 1, not 0; read it again',
    });
    const missing = handleCommand(handling, request(`counter-${randomUUID()}`, { expectedRevision: 0n }));
    await expect(missing).rejects.toMatchObject({ code: 'STALE_REVISION' });
    const current = await handleCommand(
      handling,
      request(streamId, { expectedRevision: 1n, command: add(2) }),
    );
    expect(current.revision).toBe(2n);
  });

  it('creates a stream without reading it, and answers ALREADY_EXISTS when it exists after all', async () => {
    const { store, handling, streamId } = setup();
    const created = await handleCommand(handling, request(streamId, { expectedRevision: 'no_stream' }));
    expect(store.reads).toBe(0);
    expect(created).toMatchObject({ revision: 0n, state: { total: 1 } });
    const again = handleCommand(handling, request(streamId, { expectedRevision: 'no_stream' }));
    await expect(again).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(await totalOf(store, streamId)).toEqual([1]);
  });

  it('decides its first attempt on the stream the caller read, and reads afresh only to retry', async () => {
    const { store, handling, streamId } = setup();
    await rival(store, streamId, 4);
    const initial = {
      streamId,
      events: await store.readStream(streamId),
      state: { total: 4 },
      revision: 0n,
    };
    store.reads = 0;
    await handleCommand(handling, request(streamId, { initial }));
    expect(store.reads).toBe(0);
    // Stale now: the append loses, and the retry reads.
    const result = await handleCommand(handling, request(streamId, { initial, command: add(2) }));
    expect(store.reads).toBe(1);
    expect(result.before.state).toEqual({ total: 5 });
    expect(await totalOf(store, streamId)).toEqual([4, 1, 2]);
  });

  it('passes refusals of the decider and of the command factory through, appending nothing', async () => {
    const { store, handling, streamId } = setup();
    const overCeiling = handleCommand(handling, request(streamId, { command: add(101) }));
    await expect(overCeiling).rejects.toMatchObject({ code: 'INVALID_STATE' });
    const forbidden = handleCommand(
      handling,
      request(streamId, {
        command: () => {
          throw new DomainError('FORBIDDEN', 'not yours');
        },
      }),
    );
    await expect(forbidden).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'not yours' });
    expect(await store.readStream(streamId)).toEqual([]);
  });

  it('applies a side effect right before the append, undoes it when the append loses, and skips no-ops', async () => {
    const { store, handling, streamId } = setup();
    const effects: string[] = [];
    const sideEffect = {
      apply: (events: readonly Added[]) => {
        effects.push(`apply ${events.length}`);
        return Promise.resolve();
      },
      undo: () => {
        effects.push('undo');
        return Promise.resolve();
      },
    };
    let first = true;
    await handleCommand(
      handling,
      request(streamId, {
        sideEffect,
        command: async () => {
          if (first) await rival(store, streamId, 1);
          first = false;
          return add(1);
        },
      }),
    );
    expect(effects).toEqual(['apply 1', 'undo', 'apply 1']);
    effects.length = 0;
    await handleCommand(handling, request(streamId, { sideEffect, command: add(0) }));
    expect(effects).toEqual([]);
  });
});
