import { foldOperations, type EventStore, type StructureOperation } from '@portal/domain';

export interface LastOperation {
  /** Revision of the stream's newest event. */
  readonly revision: bigint;
  readonly operation: StructureOperation;
}

/**
 * The newest operation of a structure stream, from its last event (operations run one at a time, so
 * only the newest can still be undecided); `null` for a stream without any.
 */
export async function lastOperation(store: EventStore, streamId: string): Promise<LastOperation | null> {
  const revision = await store.streamRevision(streamId);
  if (revision === null) return null;
  const tail = await store.readStream(streamId, { fromRevision: revision });
  const operation = foldOperations(tail).at(-1);
  const newest = tail.at(-1);
  if (!operation || !newest) return null;
  return { revision: newest.revision, operation };
}
