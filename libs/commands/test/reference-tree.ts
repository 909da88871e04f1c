import {
  START,
  callerPrincipals,
  comparePositions,
  foldState,
  grantsOf,
  holdsStacName,
  holdsAny,
  type Caller,
  type EventStore,
  type ObjectAccess,
  type PortalObjectEvent,
  type PortalObjectState,
  type Position,
  type RecordedEvent,
} from '@portal/domain';
import type { TreeFacts } from '../src/index.js';

type Known = Exclude<PortalObjectState, { status: 'absent' }>;

export interface TreeNode {
  readonly id: string;
  readonly state: Known;
  /** Ids from the root level down to the parent; `null` when the parent chain is broken or cycles. */
  readonly ancestorIds: readonly string[] | null;
  /** Itself or an ancestor carries a tombstone. */
  readonly buried: boolean;
}

/**
 * The tree as a reader sees it, folded in memory from every event of the store: what the API reads
 * from the projected read model, kept small and obvious for tests of the command side. It follows
 * `subscribeAll`, so `awaitCommitted` waits for the store's sync position exactly as the API waits
 * for its projector.
 */
export class ReferenceTree implements TreeFacts {
  private readonly streams = new Map<string, RecordedEvent[]>();
  private delivered: Position = START;
  /** The position the facts are answered as of; `null`: everything delivered. */
  private factsAsOf: Position | null = null;
  private readonly controller = new AbortController();
  private readonly running: Promise<void>;
  private failure: Error | null = null;

  constructor(private readonly store: EventStore) {
    this.running = this.follow();
  }

  /**
   * Waits for the store's sync position, and from then on answers as of that position exactly: what
   * the command side may rely on, and no more. (A real read model may already hold later events; a
   * rule that is right only thanks to them is wrong, and this makes such a race show every time.)
   */
  async awaitCommitted(): Promise<void> {
    const target = await this.store.syncPosition();
    const deadline = Date.now() + 20_000;
    while (comparePositions(this.delivered, target) < 0) {
      if (this.failure) throw this.failure;
      if (Date.now() > deadline) throw new Error('the reference tree did not reach the sync position');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    this.factsAsOf = target;
  }

  liveChildCount(id: string): Promise<number> {
    return Promise.resolve(this.live().filter((node) => node.state.parentId === id).length);
  }

  subtreeHeight(id: string): Promise<number> {
    const below = this.liveBelow(id);
    const top = this.node(id)?.ancestorIds?.length ?? 0;
    const deepest = Math.max(top, ...below.map((node) => node.ancestorIds?.length ?? 0));
    return Promise.resolve(deepest - top);
  }

  subtreeHasObjectNotEditableBy(id: string, principals: readonly string[]): Promise<boolean> {
    return Promise.resolve(
      this.liveBelow(id).some((node) => {
        const path = this.accessPath(node);
        return path === null || !holdsAny(principals, grantsOf(path).edit);
      }),
    );
  }

  subtreeHasObjectNotCreatedBy(id: string, userId: string): Promise<boolean> {
    return Promise.resolve(this.liveBelow(id).some((node) => node.state.access.createdBy !== userId));
  }

  liveItemsNamed(parentId: string, stacId: string): Promise<readonly string[]> {
    return Promise.resolve(
      this.live()
        .filter(({ state }) => holdsStacName(state, parentId, stacId))
        .map((node) => node.id),
    );
  }

  /** Every object the store holds (all that was delivered, or as of a position), from its own stream. */
  nodes(asOf: Position | null = null): TreeNode[] {
    const states = new Map<string, Known>();
    for (const stream of this.streams.values()) {
      const events =
        asOf === null ? stream : stream.filter((event) => comparePositions(event.position, asOf) <= 0);
      const state = foldState(
        events.map((event) => ({ type: event.type, data: event.data }) as PortalObjectEvent),
      );
      if (state.status !== 'absent') states.set(state.id, state);
    }
    return [...states.values()].map((state) => {
      const ancestorIds: string[] = [];
      let buried = state.status === 'deleted';
      let current = state.parentId;
      while (current !== null) {
        if (ancestorIds.includes(current) || current === state.id || ancestorIds.length > 64) {
          return { id: state.id, state, ancestorIds: null, buried };
        }
        const parent = states.get(current);
        if (!parent) return { id: state.id, state, ancestorIds: null, buried };
        ancestorIds.unshift(current);
        buried ||= parent.status === 'deleted';
        current = parent.parentId;
      }
      return { id: state.id, state, ancestorIds, buried };
    });
  }

  /** Whether `caller` may read the object, as its path's grants say. */
  canRead(caller: Caller, id: string): boolean {
    const node = this.node(id);
    const path = node ? this.accessPath(node) : null;
    return path !== null && holdsAny(callerPrincipals(caller), grantsOf(path).read);
  }

  async close(): Promise<void> {
    this.controller.abort();
    await this.running;
  }

  private facts(): TreeNode[] {
    return this.nodes(this.factsAsOf);
  }

  private node(id: string): TreeNode | undefined {
    return this.facts().find((node) => node.id === id);
  }

  private live(): TreeNode[] {
    return this.facts().filter((node) => node.state.status === 'live' && !node.buried);
  }

  private liveBelow(id: string): TreeNode[] {
    return this.live().filter((node) => node.ancestorIds?.includes(id) === true);
  }

  private accessPath(node: TreeNode): ObjectAccess[] | null {
    if (node.ancestorIds === null) return null;
    const byId = new Map(this.facts().map((each) => [each.id, each]));
    const path: ObjectAccess[] = [];
    for (const id of [...node.ancestorIds, node.id]) {
      const step = byId.get(id);
      if (!step) return null;
      path.push(step.state.access);
    }
    return path;
  }

  private async follow(): Promise<void> {
    try {
      for await (const batch of this.store.subscribeAll({ after: START, signal: this.controller.signal })) {
        for (const event of batch) {
          if (!/^(catalog|collection|item)-/.test(event.streamId)) continue;
          const stream = this.streams.get(event.streamId) ?? [];
          stream.push(event);
          this.streams.set(event.streamId, stream);
        }
        const last = batch.at(-1);
        if (last) this.delivered = last.position;
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }
}
