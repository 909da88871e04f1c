import type { HistoryEntry } from '@portal/contracts';
import { formatPosition, type RecordedEvent } from '@portal/domain';
import { changeOf } from './change-of.js';
import { portalEventOf } from './readable-stream.js';

/** One event of the object's stream as the history answers it. */
export function historyEntry(recorded: RecordedEvent, names: ReadonlyMap<string, string>): HistoryEntry {
  const actorId = recorded.metadata.actorId;
  return {
    type: recorded.type,
    revision: Number(recorded.revision),
    position: formatPosition(recorded.position),
    occurredAt: recorded.metadata.occurredAt,
    actor: { id: actorId, name: actorId === null ? null : (names.get(actorId) ?? null) },
    change: changeOf(portalEventOf(recorded)),
  };
}
