import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError, DomainError, eventMetadata, type EventStore } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import type { CommandContext } from './command-context.js';
import { withConsistentRefusals } from './consistent-refusal.js';

const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

async function mark(store: EventStore, streamId: string, shared: boolean): Promise<void> {
  await store.append(streamId, [{ id: randomUUID(), type: 'Marked', data: { shared }, metadata }], {
    expectedRevision: 'any',
  });
}

async function shared(store: EventStore, streamId: string): Promise<boolean> {
  const last = (await store.readStream(streamId)).at(-1);
  return (last?.data as { shared: boolean } | undefined)?.shared ?? false;
}

/** Only the store matters to the check; the rest of a command's context is never touched here. */
function contextOf(store: EventStore): CommandContext {
  return { store } as unknown as CommandContext;
}

/**
 * The torn view of a move: the object is read shared, then a command unshares both the object and the
 * parent below it, then the parent is read unshared. Each read alone is true; together no instant saw them.
 */
describe('a refusal decided on several streams', () => {
  it('is looked at again when a stream it read has moved on, and then answers from a whole view', async () => {
    const store = new InMemoryEventStore();
    await mark(store, 'object', true);
    await mark(store, 'parent', true);
    let runs = 0;
    const answer = await withConsistentRefusals(contextOf(store), async ({ store: reading }) => {
      runs += 1;
      const objectShared = await shared(reading, 'object');
      if (runs === 1) {
        await mark(store, 'object', false);
        await mark(store, 'parent', false);
      }
      if (objectShared && !(await shared(reading, 'parent'))) {
        throw new DomainError('PARENT_NOT_FOUND', 'the parent does not exist');
      }
      return objectShared ? 'moved' : 'object not found';
    });
    expect(answer).toBe('object not found');
    expect(runs).toBe(2);
  });

  /**
   * A check that reads one stream twice, the stream changing in between on its first run, and refuses
   * when the two reads disagree: a torn view, which must be looked at again, not stand.
   */
  async function readTwiceAroundAChange<T>(
    store: EventStore,
    read: (reading: EventStore) => Promise<T>,
    change: () => Promise<void>,
  ): Promise<{ answer: string; runs: number }> {
    let runs = 0;
    const answer = await withConsistentRefusals(contextOf(store), async ({ store: reading }) => {
      runs += 1;
      const first = await read(reading);
      if (runs === 1) await change();
      if ((await read(reading)) !== first) throw new DomainError('FORBIDDEN', 'the two reads disagree');
      return 'one view';
    });
    return { answer, runs };
  }

  it('is looked at again when a stream it read twice moved on between the two reads', async () => {
    // A move under its own descendant reads the object, then the new parent's ancestors, the object
    // among them: a share landing in between made the object look unshared in its own place and shared
    // above the new parent, a widening no instant shows (CI, command properties seed 509253566).
    const store = new InMemoryEventStore();
    await mark(store, 'object', false);
    const result = await readTwiceAroundAChange(
      store,
      (reading) => shared(reading, 'object'),
      () => mark(store, 'object', true),
    );
    expect(result).toEqual({ answer: 'one view', runs: 2 });
  });

  it('is looked at again when a stream missing at its first read exists at its second', async () => {
    const store = new InMemoryEventStore();
    const result = await readTwiceAroundAChange(
      store,
      async (reading) => (await reading.readStream('object')).length > 0,
      () => mark(store, 'object', false),
    );
    expect(result).toEqual({ answer: 'one view', runs: 2 });
  });

  it('stands when nothing it read has changed since', async () => {
    const store = new InMemoryEventStore();
    await mark(store, 'object', true);
    let runs = 0;
    const check = withConsistentRefusals(contextOf(store), async ({ store: reading }) => {
      runs += 1;
      await reading.readStream('object');
      await reading.readStream('missing');
      throw new DomainError('FORBIDDEN', 'no');
    });
    await expect(check).rejects.toThrow('no');
    expect(runs).toBe(1);
  });

  it('gives up after a few torn views and answers the last refusal', async () => {
    const store = new InMemoryEventStore();
    let runs = 0;
    const check = withConsistentRefusals(contextOf(store), async ({ store: reading }) => {
      runs += 1;
      await reading.readStream('object');
      await mark(store, 'object', runs % 2 === 0);
      throw new DomainError('FORBIDDEN', `refusal ${runs}`);
    });
    await expect(check).rejects.toThrow('refusal 4');
    expect(runs).toBe(4);
  });

  // A lost append the handler's own retries could not win is no refusal of a rule either.
  it.each([
    ['an error that is not a refusal', () => new Error('connection lost')],
    ['a conflict its appends could not win', () => new ConcurrencyError('object', '0', '1')],
  ])('passes %s straight through, without looking again', async (_name, failure) => {
    const store = new InMemoryEventStore();
    let runs = 0;
    const error = failure();
    const check = withConsistentRefusals(contextOf(store), async ({ store: reading }) => {
      runs += 1;
      await reading.readStream('object');
      await mark(store, 'object', true);
      throw error;
    });
    await expect(check).rejects.toBe(error);
    expect(runs).toBe(1);
  });
});
