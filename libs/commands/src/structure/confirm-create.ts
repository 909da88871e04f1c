import {
  DomainError,
  foldOperations,
  structureStreamId,
  touchesAny,
  type EventMetadata,
  type StructureOperation,
} from '@portal/domain';
import type { CommandContext } from '../command-context.js';
import { settle } from './settle.js';

/** Where an organization's structure stream stood before a create looked at its parent. */
export interface StructureWatch {
  readonly streamId: string;
  readonly revision: bigint | null;
}

export async function watchStructure(context: CommandContext, orgId: string | null): Promise<StructureWatch> {
  const streamId = structureStreamId(orgId);
  return { streamId, revision: await context.store.streamRevision(streamId) };
}

/**
 * A create is not serialized with moves and deletes (ingest must not queue per organization); it
 * confirms instead, after appending, that no structure operation on its parent or an ancestor raced
 * it. Every operation that could have is in the stream's tail from the watched revision on: the one
 * that was newest when the create looked (perhaps still undecided, or decided and not yet applied), and
 * any started since. One that started after this read cannot race it: it committed after the create
 * did, and waits for the read model to include the new object before it decides (`runStructureChange`).
 *
 * - nothing on the lineage in the tail (the usual case: one cheap read): the create stands;
 * - an operation on the lineage still running: wait for its decision;
 * - a delete of the parent or an ancestor decided: the new object is buried with it, so the create
 *   answers that the parent is gone (`PARENT_NOT_FOUND`), never a success nobody can read;
 * - a move of an ancestor decided: `onAncestorMoved` checks what a move can break (the depth bound).
 */
export async function confirmCreate(
  context: CommandContext,
  watch: StructureWatch,
  lineage: readonly string[],
  metadata: EventMetadata,
  onAncestorMoved: () => Promise<void>,
): Promise<void> {
  // From the watched revision itself: the newest operation at that moment may still be undecided (or
  // decided and not yet applied), and the create's reads came after it.
  const fromRevision = watch.revision ?? 0n;
  const watched = new Set(lineage);
  for (;;) {
    const tail = await context.store.readStream(watch.streamId, { fromRevision });
    if (tail.length === 0) return;
    const operations = foldOperations(tail).filter((operation) => touchesAny(operation, watched));
    if (operations.some((operation) => operation.state.status === 'pending')) {
      // Operations run one at a time: the pending one is the newest, and settling waits for it.
      await settle(context, watch.streamId, { deadline: null }, metadata);
      continue;
    }
    const deleted = operations.find((operation) => isApplied(operation, 'delete'));
    if (deleted) {
      throw new DomainError(
        'PARENT_NOT_FOUND',
        'the parent (or one of its ancestors) was deleted while this was being created; nothing was created',
      );
    }
    if (operations.some((operation) => isApplied(operation, 'move'))) await onAncestorMoved();
    return;
  }
}

function isApplied(operation: StructureOperation, type: 'move' | 'delete'): boolean {
  const { state } = operation;
  return (
    operation.change.type === type &&
    state.status === 'decided' &&
    state.outcome.applied &&
    state.outcome.appends.length > 0
  );
}
