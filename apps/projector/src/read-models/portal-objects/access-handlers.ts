import type {
  AccessEvent,
  ObjectShared,
  ObjectUnshared,
  RecordedEvent,
  VisibilityChanged,
} from '@portal/domain';
import type { Sql } from '../../projection.js';
import { recomputeSubtreeAccess } from './subtree-access.js';

// Visibility and shares: the object's own facts change on its row (guarded by its version, so a replay
// changes nothing), then what it and its whole subtree inherit is recomputed in the same transaction.

export async function applyAccessEvent(sql: Sql, event: AccessEvent, recorded: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'VisibilityChanged':
      return visibilityChanged(sql, event, recorded);
    case 'ObjectShared':
      return shared(sql, event, recorded);
    case 'ObjectUnshared':
      return unshared(sql, event, recorded);
    default:
      return exhausted(event);
  }
}

function exhausted(event: never): never {
  throw new Error(`unhandled access event ${JSON.stringify(event)}`);
}

/**
 * Runs `assignments` (which may use `$1` = id, `$2` = revision, `$3` = occurredAt and `extra` from `$4`) on
 * the object's row if the event is not applied yet, then recomputes the subtree. A missing row is a broken
 * read model, so it fails loudly.
 */
async function changeOwnAccess(
  sql: Sql,
  event: AccessEvent,
  recorded: RecordedEvent,
  name: string,
  assignments: string,
  extra: readonly unknown[],
): Promise<void> {
  const { id, kind } = event.data;
  const result = await sql.query<{ known: boolean; changed: boolean }>({
    name: `projector_portal_objects_${name}`,
    text: `
      WITH changed AS (
        UPDATE portal_objects SET ${assignments}, version = $2, updated_at = $3
         WHERE id = $1 AND version < $2
        RETURNING id
      )
      SELECT EXISTS (SELECT 1 FROM portal_objects WHERE id = $1) AS known,
             EXISTS (SELECT 1 FROM changed) AS changed`,
    values: [id, recorded.revision.toString(), recorded.metadata.occurredAt, ...extra],
  });
  const outcome = result.rows[0];
  if (outcome?.known !== true) throw new Error(`${kind} ${id} is not in the read model`);
  if (outcome.changed) await recomputeSubtreeAccess(sql, id);
}

function visibilityChanged(sql: Sql, event: VisibilityChanged, recorded: RecordedEvent): Promise<void> {
  return changeOwnAccess(sql, event, recorded, 'visibility_changed', 'visibility = $4', [event.data.to]);
}

/** A share as the `shares` column keeps it (the shape of the domain's `Share`). */
const shareJson = `jsonb_build_object('principal', jsonb_build_object('type', $4::text, 'id', $5::text), 'permission', $6::text)`;

/** A share to a principal already shared with replaces that share in place; a new one goes last. */
function shared(sql: Sql, event: ObjectShared, recorded: RecordedEvent): Promise<void> {
  const { principal, permission } = event.data;
  return changeOwnAccess(
    sql,
    event,
    recorded,
    'shared',
    `shares = CASE
       WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(shares) AS s
                     WHERE s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5)
       THEN (SELECT jsonb_agg(CASE WHEN s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5
                                   THEN ${shareJson} ELSE s END ORDER BY at)
               FROM jsonb_array_elements(shares) WITH ORDINALITY AS e(s, at))
       ELSE shares || jsonb_build_array(${shareJson})
     END`,
    [principal.type, principal.id, permission],
  );
}

function unshared(sql: Sql, event: ObjectUnshared, recorded: RecordedEvent): Promise<void> {
  const { principal } = event.data;
  return changeOwnAccess(
    sql,
    event,
    recorded,
    'unshared',
    `shares = COALESCE(
       (SELECT jsonb_agg(s ORDER BY at) FROM jsonb_array_elements(shares) WITH ORDINALITY AS e(s, at)
         WHERE NOT (s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5)),
       '[]'::jsonb)`,
    [principal.type, principal.id],
  );
}
