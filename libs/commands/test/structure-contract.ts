import {
  DomainError,
  MAX_DEPTH,
  structureStreamId,
  type EventStore,
  type StructureEvent,
} from '@portal/domain';
import { expect, it, onTestFinished } from 'vitest';
import { anOwner, metadataFor, newId, StructureHarness } from './structure-harness.js';

export interface StructureContractOptions {
  /** A store of the adapter under test, empty and written by this test only. */
  readonly createStore: () => Promise<EventStore>;
}

/** The code a settled command failed with, or `ok`. */
function outcomeOf(result: PromiseSettledResult<unknown>): string {
  if (result.status === 'fulfilled') return 'ok';
  const reason: unknown = result.reason;
  if (reason instanceof DomainError) return reason.code;
  throw reason;
}

/** A deterministic pseudo-random sequence, so a failing run can be told by its seed. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * The invariants that span streams, as every event-store adapter must keep them through the command
 * library: moves never close a cycle nor outgrow the depth bound, and a delete never buries a child
 * created or moved in at the same moment after that child was acknowledged. Call inside a `describe`.
 */
export function structureContract(options: StructureContractOptions): void {
  async function harness(settings?: ConstructorParameters<typeof StructureHarness>[1]) {
    const store = await options.createStore();
    const made = new StructureHarness(store, settings);
    onTestFinished(async () => {
      await made.close();
      await store.close();
    });
    return made;
  }

  function expectAcyclicWithinDepth(made: StructureHarness): void {
    for (const node of made.tree.nodes()) {
      expect(node.ancestorIds, `object ${node.id} has a parent chain that reaches the root`).not.toBeNull();
      if (node.state.status === 'live' && !node.buried) {
        expect((node.ancestorIds?.length ?? 0) + 1).toBeLessThanOrEqual(MAX_DEPTH);
      }
    }
  }

  it('of two moves that would put two objects under each other, exactly one succeeds', async () => {
    const made = await harness();
    const owner = anOwner();
    for (let trial = 0; trial < 8; trial += 1) {
      const p = await made.createCatalog(owner, null);
      const q = await made.createCatalog(owner, null);
      const results = await Promise.allSettled([made.move(owner, p, q), made.move(owner, q, p)]);
      expect(results.map(outcomeOf).sort()).toEqual(['CYCLE', 'ok']);
    }
    await made.tree.awaitCommitted();
    expectAcyclicWithinDepth(made);
  });

  it('of three moves rotating three objects under each other, at least one is refused', async () => {
    const made = await harness();
    const owner = anOwner();
    for (let trial = 0; trial < 6; trial += 1) {
      const [a, b, c] = await Promise.all([1, 2, 3].map(() => made.createCatalog(owner, null)));
      if (!a || !b || !c) throw new Error('three catalogs expected');
      const results = await Promise.allSettled([
        made.move(owner, a, b),
        made.move(owner, b, c),
        made.move(owner, c, a),
      ]);
      const outcomes = results.map(outcomeOf);
      expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(2);
      expect(outcomes.filter((outcome) => outcome === 'CYCLE')).toHaveLength(1);
    }
    await made.tree.awaitCommitted();
    expectAcyclicWithinDepth(made);
  });

  it('concurrent random moves over a forest leave a tree: no cycle, every object reachable', async () => {
    const made = await harness();
    const owner = anOwner();
    const random = randomFrom(20261125);
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const parent =
        ids.length === 0 || random() < 0.3 ? null : (ids[Math.floor(random() * ids.length)] ?? null);
      ids.push(await made.createCatalog(owner, parent));
    }
    const pick = (): string => ids[Math.floor(random() * ids.length)] ?? '';
    for (let round = 0; round < 5; round += 1) {
      const moves = Array.from({ length: 12 }, () => {
        const target = random() < 0.15 ? null : pick();
        return made.move(owner, pick(), target);
      });
      const outcomes = (await Promise.allSettled(moves)).map(outcomeOf);
      for (const outcome of outcomes) expect(['ok', 'CYCLE', 'DEPTH_EXCEEDED']).toContain(outcome);
      expect(outcomes).toContain('ok');
    }
    await made.tree.awaitCommitted();
    expectAcyclicWithinDepth(made);
  });

  it('a delete racing creates below its parent never loses an acknowledged create', async () => {
    const made = await harness();
    const owner = anOwner();
    for (let trial = 0; trial < 6; trial += 1) {
      const parent = await made.createCatalog(owner, null);
      const creates = Array.from({ length: 5 }, () => made.createCatalog(owner, parent));
      const [deleted, ...created] = await Promise.allSettled([made.remove(owner, parent), ...creates]);
      await made.tree.awaitCommitted();
      const nodes = new Map(made.tree.nodes().map((node) => [node.id, node]));
      const acknowledged = created.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      for (const id of acknowledged) {
        const node = nodes.get(id);
        expect(node?.state.status === 'live' && !node.buried, `acknowledged child ${id} is live`).toBe(true);
      }
      expect(created.map(outcomeOf).every((outcome) => ['ok', 'PARENT_NOT_FOUND'].includes(outcome))).toBe(
        true,
      );
      if (outcomeOf(deleted) === 'ok') expect(acknowledged).toEqual([]);
      else expect(outcomeOf(deleted)).toBe('NOT_EMPTY');
    }
  });

  it('a create that reads its parent while a delete of it is undecided waits for the decision', async () => {
    const made = await harness();
    const owner = anOwner();
    const parent = await made.createCatalog(owner, null);
    const hold = made.holdNextOperationAtItsFacts();
    const deleting = made.remove(owner, parent);
    await hold.reached;
    const creating = made.createCatalog(owner, parent);
    // The child is in the store before the delete decides, but not in what the delete reads.
    await made.childAppendedUnder(parent);
    hold.release();
    const [deleted, created] = await Promise.allSettled([deleting, creating]);
    expect([outcomeOf(deleted), outcomeOf(created)]).toEqual(['ok', 'PARENT_NOT_FOUND']);
  });

  it('a create racing a move of its parent to a wider place is taken back', async () => {
    const made = await harness();
    const owner = anOwner();
    const editor = { userId: newId(), orgId: owner.orgId, role: 'editor' } as const;
    const parent = await made.createCatalog(owner, null);
    const shared = await made.createCatalog(owner, null);
    await made.share(owner, shared, { type: 'user', id: newId() });
    const hold = made.holdNextOperationAtItsFacts();
    const moving = made.move(owner, parent, shared);
    await hold.reached;
    const creating = made.createCatalog(editor, parent);
    await made.childAppendedUnder(parent);
    hold.release();
    const [moved, created] = await Promise.allSettled([moving, creating]);
    expect([outcomeOf(moved), outcomeOf(created)]).toEqual(['ok', 'CONCURRENCY_CONFLICT']);
    await made.tree.awaitCommitted();
    const children = made.tree.nodes().filter((node) => node.state.parentId === parent);
    expect(children.map((node) => node.state.status)).toEqual(['deleted']);
  });

  it('a delete racing a move into it never loses the moved object', async () => {
    const made = await harness();
    const owner = anOwner();
    for (let trial = 0; trial < 8; trial += 1) {
      const home = await made.createCatalog(owner, null);
      const target = await made.createCatalog(owner, null);
      const moved = await made.createCatalog(owner, home);
      const results = await Promise.allSettled([made.remove(owner, target), made.move(owner, moved, target)]);
      const [deleted, move] = results.map(outcomeOf);
      expect([deleted, move]).not.toEqual(['ok', 'ok']);
      await made.tree.awaitCommitted();
      const node = made.tree.nodes().find((each) => each.id === moved);
      expect(node?.state.status === 'live' && !node.buried, 'the moved object is still there').toBe(true);
    }
  });

  it('a create racing a move that takes its parent deeper never ends below the depth bound', async () => {
    const made = await harness();
    const owner = anOwner();
    const chain: string[] = [];
    for (let depth = 1; depth < MAX_DEPTH; depth += 1)
      chain.push(await made.createCatalog(owner, chain.at(-1) ?? null));
    const [top] = chain;
    const deepest = chain.at(-1);
    if (!top || !deepest) throw new Error('a chain is expected');
    for (let trial = 0; trial < 4; trial += 1) {
      const holder = await made.createCatalog(owner, null);
      const results = await Promise.allSettled([
        made.move(owner, top, holder),
        made.createCatalog(owner, deepest),
      ]);
      const outcomes = results.map(outcomeOf);
      expect(outcomes).not.toEqual(['ok', 'ok']);
      await made.tree.awaitCommitted();
      expectAcyclicWithinDepth(made);
      if (outcomes[0] === 'ok') await made.move(owner, top, null);
    }
  });

  it('finishes an operation decided by a process that died before applying it', async () => {
    const made = await harness();
    const owner = anOwner();
    const home = await made.createCatalog(owner, null);
    const target = await made.createCatalog(owner, null);
    const moved = await made.createCatalog(owner, home);
    const streamId = structureStreamId(owner.orgId);
    const operationId = newId();
    const change = { type: 'move', objectId: moved, toParentId: target } as const;
    const metadata = metadataFor(owner);
    const moveEvent = {
      id: newId(),
      event: {
        type: 'PortalObjectMoved',
        data: { id: moved, kind: 'catalog', fromParentId: home, toParentId: target },
      },
    } as const;
    const events: StructureEvent[] = [
      { type: 'StructureChangeStarted', data: { operationId, change } },
      {
        type: 'StructureChangeDecided',
        data: {
          operationId,
          change,
          outcome: { applied: true, appends: [{ streamId: `catalog-${moved}`, events: [moveEvent] }] },
        },
      },
    ];
    const revision = await made.store.streamRevision(streamId);
    await made.store.append(
      streamId,
      events.map((event) => ({ id: newId(), type: event.type, data: event.data, metadata })),
      { expectedRevision: revision ?? 'no_stream' },
    );
    // The next structure operation of the organization applies it first, once.
    await made.move(owner, home, target);
    await made.remove(owner, home);
    const stream = await made.store.readStream(`catalog-${moved}`);
    expect(stream.filter((event) => event.id === moveEvent.id)).toHaveLength(1);
    await made.tree.awaitCommitted();
    const node = made.tree.nodes().find((each) => each.id === moved);
    expect(node?.state.status === 'live' && node.state.parentId).toBe(target);
  });

  it('abandons an operation left undecided past the timeout, and waits for a live one', async () => {
    const made = await harness({ waitMs: 300, abandonAfterMs: 60_000 });
    const owner = anOwner();
    const a = await made.createCatalog(owner, null);
    const b = await made.createCatalog(owner, null);
    const streamId = structureStreamId(owner.orgId);
    const started: StructureEvent = {
      type: 'StructureChangeStarted',
      data: { operationId: newId(), change: { type: 'delete', objectIds: [b], recursive: false } },
    };
    const revision = await made.store.streamRevision(streamId);
    await made.store.append(
      streamId,
      [{ id: newId(), type: started.type, data: started.data, metadata: metadataFor(owner) }],
      { expectedRevision: revision ?? 'no_stream' },
    );
    // Started a moment ago: another move waits for it, then gives up without changing anything.
    const waited = await Promise.allSettled([made.move(owner, a, b)]);
    expect(waited.map(outcomeOf)).toEqual(['BUSY']);
    // A minute later it is taken for dead: abandoned, and the move goes ahead.
    made.now = () => new Date(Date.now() + 61_000);
    await made.move(owner, a, b);
    const tail = await made.store.readStream(streamId);
    expect(tail.map((event) => event.type)).toContain('StructureChangeAbandoned');
    await made.tree.awaitCommitted();
    expect(made.tree.nodes().find((node) => node.id === a)?.state.parentId).toBe(b);
  });
}
