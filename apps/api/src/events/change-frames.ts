import type { ChangeEvent, FeedReset } from '@portal/contracts';
import { parsePosition } from '@portal/domain';
import type { ChangeRow } from '@portal/read-model-audit';
import type { ChangeFrame } from './sse-connection.js';
import { eventFrame } from './sse-frames.js';

export function changeEventOf(row: ChangeRow): ChangeEvent {
  return {
    objectId: row.object_id,
    kind: row.kind,
    type: row.type,
    revision: Number(row.revision),
    position: row.position,
    occurredAt: row.occurred_at.toISOString(),
    actorId: row.actor_id,
  };
}

/** `id:` the position (stable across rebuilds), `event:` the event type, `data:` the change. */
export function changeFrame(row: ChangeRow): ChangeFrame {
  const position = parsePosition(row.position);
  if (!position) throw new Error(`audit event ${row.seq} has a malformed position "${row.position}"`);
  return {
    position,
    frame: eventFrame({ id: row.position, event: row.type, data: JSON.stringify(changeEventOf(row)) }),
  };
}

/**
 * `event: reset`: what was missed cannot be replayed. Its `id:` is where the live feed continues, so a
 * client that drops again resumes from there instead of meeting the same reset; an empty id (no event
 * yet) clears its resume point.
 */
export function resetFrame(reset: FeedReset): string {
  return eventFrame({ id: reset.position ?? '', event: 'reset', data: JSON.stringify(reset) });
}
