import { randomUUID } from 'node:crypto';
import {
  portalObjectDecider,
  streamIdOf,
  type Caller,
  type EventMetadata,
  type EventStore,
  type SharePrincipal,
  type Visibility,
} from '@portal/domain';
import {
  createObject,
  deleteObjects,
  handleCommand,
  loadObject,
  moveObject,
  newObjectAccess,
  OrganizationDirectory,
  type CommandContext,
  type StructureSettings,
} from '../src/index.js';
import { ReferenceTree } from './reference-tree.js';

export const newId = (): string => randomUUID();

export function metadataFor(caller: Caller, now = new Date()): EventMetadata {
  return {
    actorId: caller.userId,
    orgId: caller.orgId,
    correlationId: newId(),
    causationId: null,
    requestId: newId(),
    occurredAt: now.toISOString(),
    schemaVersion: 2,
  };
}

/** An owner of a fresh organization: structure tests are about races, not rights. */
export function anOwner(): Caller & { readonly userId: string; readonly orgId: string } {
  return { userId: newId(), orgId: newId(), role: 'owner' };
}

/**
 * The command library on one store with the reference tree as its read model: creates, moves and
 * deletes exactly as the API runs them, without HTTP.
 */
export class StructureHarness {
  readonly tree: ReferenceTree;
  readonly context: CommandContext;
  /** The clock the commands see; a test moves it to make an operation look dead. */
  now = (): Date => new Date();

  constructor(
    readonly store: EventStore,
    structure: Partial<StructureSettings> = {},
  ) {
    this.tree = new ReferenceTree(store);
    this.context = {
      store,
      tree: this.tree,
      newId,
      now: () => this.now(),
      structure: { waitMs: 20_000, abandonAfterMs: 30_000, ...structure },
      organizations: new OrganizationDirectory(),
    };
  }

  async createCatalog(
    caller: Caller,
    parentId: string | null,
    visibility: Visibility = 'org',
  ): Promise<string> {
    const metadata = metadataFor(caller);
    const made = await createObject(
      this.context,
      { kind: 'catalog', parentId, caller, metadata },
      async (parent) => {
        const id = newId();
        await handleCommand(this.context, {
          streamId: streamIdOf('catalog', id),
          decider: portalObjectDecider,
          expectedRevision: 'no_stream',
          command: {
            type: 'CreateCatalog',
            data: {
              id,
              title: `catalog ${id.slice(0, 8)}`,
              description: 'made by a structure test',
              links: [],
              parent: parent?.lookup ?? null,
              access: newObjectAccess(caller, visibility),
            },
          },
          metadata,
        });
        return { id };
      },
    );
    return made.id;
  }

  /** Shares a catalog, as `POST …/shares` would once its rights were checked. */
  async share(by: Caller, id: string, principal: SharePrincipal): Promise<void> {
    const object = await loadObject(this.store, id);
    if (!object) throw new Error(`no object ${id}`);
    await handleCommand(this.context, {
      streamId: object.streamId,
      decider: portalObjectDecider,
      command: {
        type: 'ShareObject',
        data: {
          id,
          principal,
          permission: 'editor',
          principalExists: true,
          sharedBy: by.userId,
          ancestorDeleted: false,
        },
      },
      metadata: metadataFor(by),
    });
  }

  /**
   * Makes the next structure operation stop right after it fixed what it reads (the reference tree
   * answers as of that position), until `release` is called: a race made to order.
   */
  holdNextOperationAtItsFacts(): { readonly reached: Promise<void>; readonly release: () => void } {
    let reachedFacts: () => void = () => undefined;
    let release: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (reachedFacts = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const awaitCommitted = this.tree.awaitCommitted.bind(this.tree);
    this.tree.awaitCommitted = async () => {
      this.tree.awaitCommitted = awaitCommitted;
      await awaitCommitted();
      reachedFacts();
      await gate;
    };
    return { reached, release };
  }

  /** Resolves once some object under `parentId` is in the store (delivered to the reference tree). */
  async childAppendedUnder(parentId: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!this.tree.nodes().some((node) => node.state.parentId === parentId)) {
      if (Date.now() > deadline) throw new Error(`nothing was appended under ${parentId}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async move(caller: Caller, id: string, toParentId: string | null): Promise<void> {
    await moveObject(this.context, { id, toParentId, caller, metadata: metadataFor(caller) });
  }

  async remove(caller: Caller, id: string, recursive = false): Promise<void> {
    await deleteObjects(this.context, { ids: [id], recursive, caller, metadata: metadataFor(caller) });
  }

  close(): Promise<void> {
    return this.tree.close();
  }
}
