import { randomUUID } from 'node:crypto';
import {
  decide,
  initialState,
  streamIdOf,
  type Caller,
  type EventMetadata,
  type EventStore,
  type Visibility,
} from '@portal/domain';
import {
  createObject,
  deleteObjects,
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
        const events = decide(
          {
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
          initialState,
        );
        await this.store.append(
          streamIdOf('catalog', id),
          events.map((event) => ({ id: newId(), type: event.type, data: event.data, metadata })),
          { expectedRevision: 'no_stream' },
        );
        return { id };
      },
    );
    return made.id;
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
