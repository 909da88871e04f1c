import {
  ConcurrencyError,
  type DecidedAppend,
  type EventMetadata,
  type EventStore,
  type Position,
} from '@portal/domain';

/**
 * Appends a decided operation's events to the object's stream unless they are there already. Whoever
 * meets a decided operation applies it — its own process right after deciding, or the next command of
 * the organization if that process died in between — so this must be harmless twice: the events carry
 * the ids chosen at the decision, and are appended with the revision just read, never blindly.
 * Returns the position of the last event, `null` when there were none.
 */
export async function applyDecided(
  store: EventStore,
  append: DecidedAppend,
  metadata: EventMetadata,
): Promise<Position | null> {
  const [first] = append.events;
  if (!first) return null;
  for (;;) {
    const stream = await store.readStream(append.streamId);
    const lastId = append.events.at(-1)?.id;
    const applied = stream.find((event) => event.id === lastId);
    if (applied) return applied.position;
    const current = stream.at(-1)?.revision;
    try {
      const result = await store.append(
        append.streamId,
        append.events.map(({ id, event }) => ({ id, type: event.type, data: event.data, metadata })),
        { expectedRevision: current ?? 'no_stream' },
      );
      return result.position;
    } catch (error) {
      // Another writer moved the stream (a title change, or a second applier): look again.
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
