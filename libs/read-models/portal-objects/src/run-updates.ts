import type { PortalObjectChanges, PortalObjectUpdated, RecordedEvent } from '@portal/domain';
import type { Sql } from '@portal/read-model-core';

/**
 * The fields an update of a run may change (a title goes alone: it takes a slug; an item's metadata
 * too: it recomputes its parent's extent).
 */
type RunField = Exclude<keyof PortalObjectChanges, 'title' | 'metadata'>;

/** Each field: its column, how its value travels, and whether it is stored as JSON. */
const fields: readonly (readonly [RunField, string, 'text' | 'jsonb'])[] = [
  ['description', 'description', 'text'],
  ['links', 'links', 'jsonb'],
  ['license', 'license', 'text'],
  ['keywords', 'keywords', 'jsonb'],
  ['extent', 'extent', 'jsonb'],
  ['assets', 'href_assets', 'jsonb'],
];

/**
 * Every update of a run in one statement: each row takes the fields its event changed (a flag per
 * field says which; the others keep their value) and its revision, guarded by `version < revision` as
 * the single update is. No object appears twice in a run. Lists the objects the read model lacks.
 */
const updateRun = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[],
                         ${fields.map(([, , type], index) => `$${2 * index + 4}::boolean[], $${2 * index + 5}::${type}[]`).join(', ')})
                  AS u(id, revision, at, ${fields.map(([, column]) => `set_${column}, ${column}`).join(', ')})
  ), changed AS (
    UPDATE portal_objects o
       SET version = u.revision, updated_at = u.at,
           ${fields.map(([, column]) => `${column} = CASE WHEN u.set_${column} THEN u.${column} ELSE o.${column} END`).join(',\n           ')}
      FROM input u
     WHERE o.id = u.id AND o.version < u.revision
  )
  SELECT u.id FROM input u WHERE NOT EXISTS (SELECT 1 FROM portal_objects o WHERE o.id = u.id)`;

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export async function updateRunObjects(
  sql: Sql,
  updates: readonly (readonly [PortalObjectUpdated, RecordedEvent])[],
): Promise<void> {
  if (updates.length === 0) return;
  const alone = updates.find(([event]) => event.data.changes.metadata !== undefined);
  if (alone) throw new Error(`the metadata change of ${alone[0].data.id} cannot be applied in a run`);
  const values: unknown[] = [
    updates.map(([event]) => event.data.id),
    updates.map(([, recorded]) => recorded.revision.toString()),
    updates.map(([, recorded]) => recorded.metadata.occurredAt),
  ];
  for (const [field, , type] of fields) {
    values.push(updates.map(([event]) => event.data.changes[field] !== undefined));
    values.push(
      updates.map(([event]) => {
        const value = event.data.changes[field];
        return type === 'jsonb' ? jsonOrNull(value) : (value ?? null);
      }),
    );
  }
  const result = await sql.query<{ id: string }>({
    name: 'projector_portal_objects_update_run',
    text: updateRun,
    values,
  });
  const missing = result.rows[0];
  if (missing) throw new Error(`object ${missing.id} is not in the read model`);
}
