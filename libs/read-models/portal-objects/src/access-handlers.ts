import type {
  AccessEvent,
  ObjectShared,
  ObjectUnshared,
  RecordedEvent,
  VisibilityChanged,
} from '@portal/domain';
import type { Sql } from '@portal/read-model-core';
import { descendantIds, statementCall, type StatementFunction } from './statement-function.js';
import { accessChanged, subtreeAccessCtes } from './subtree-access.js';

// Visibility and shares: the object's own facts change on its row (guarded by its version, so a replay
// changes nothing), and what it and its whole subtree inherit is recomputed in the same statement.

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

/** The object's own access facts after the event, as SQL over its row (`o`) and the parameters from `$4`. */
interface OwnAccess {
  readonly visibility: string;
  readonly shares: string;
}

/**
 * One statement: if the event is not applied yet (the object's version), the object's own facts change,
 * and what it and its whole subtree inherit (effective visibility, share readers and editors, read
 * principals) is computed from the new facts and written, only where it changed (a leaf: its row only).
 * `$1` id, `$2` revision, `$3` occurredAt, the event's values from `$4`. The inventory totals follow
 * through their statement triggers. A missing row is a broken read model, so it fails loudly.
 * `subtree` selects the object and its descendants (`o`): through the ancestor_ids index, or by their ids.
 */
function changeOwnAccessSql(
  own: OwnAccess,
  subtree = 'o.id = $1 OR o.ancestor_ids @> ARRAY[$1::uuid]',
): string {
  return `
    WITH target AS (
      SELECT o.id, o.version FROM portal_objects o WHERE o.id = $1
    ), own AS (
      SELECT o.id, ${own.visibility} AS visibility, ${own.shares} AS shares, o.parent_id,
             cardinality(o.ancestor_ids) + 1 AS top_position
        FROM portal_objects o WHERE o.id = $1 AND o.version < $2
    ), above AS (
      SELECT own.top_position, COALESCE(p.effective_visibility, 'public') AS effective_visibility,
             COALESCE(p.share_readers, '{}') AS share_readers, COALESCE(p.share_editors, '{}') AS share_editors
        FROM own LEFT JOIN portal_objects p ON p.id = own.parent_id
    ), subtree AS MATERIALIZED (
      SELECT o.id, o.ancestor_ids, o.org_id, o.created_by,
             CASE WHEN o.id = own.id THEN own.visibility ELSE o.visibility END AS visibility,
             CASE WHEN o.id = own.id THEN own.shares ELSE o.shares END AS shares
        FROM portal_objects o CROSS JOIN own
       WHERE ${subtree}
    ), ${subtreeAccessCtes({ above: 'above', subtree: 'subtree' })},
    changed AS (
      UPDATE portal_objects o
         SET visibility = s.visibility, shares = s.shares,
             version = CASE WHEN o.id = $1 THEN $2::bigint ELSE o.version END,
             updated_at = CASE WHEN o.id = $1 THEN $3::timestamptz ELSE o.updated_at END,
             effective_visibility = c.effective_visibility, share_readers = c.share_readers,
             share_editors = c.share_editors, read_principals = c.read_principals
        FROM computed c JOIN subtree s ON s.id = c.id
       WHERE o.id = c.id AND (o.id = $1 OR ${accessChanged})
    )
    SELECT EXISTS (SELECT 1 FROM target) AS known`;
}

async function changeOwnAccess(
  sql: Sql,
  event: AccessEvent,
  recorded: RecordedEvent,
  statement: StatementFunction,
  extra: readonly unknown[],
): Promise<void> {
  const { id, kind } = event.data;
  const result = await sql.query<{ known: boolean }>({
    ...statementCall(statement),
    values: [id, recorded.revision.toString(), recorded.metadata.occurredAt, ...extra],
  });
  if (result.rows[0]?.known !== true) throw new Error(`${kind} ${id} is not in the read model`);
}

const ownAccessParameters = ['uuid', 'bigint', 'timestamptz'];

/** The statement, and the same with the rows below the object found by their ids. */
function ownAccessBodies(own: OwnAccess): Pick<StatementFunction, 'body' | 'keyedBody'> {
  return {
    body: changeOwnAccessSql(own),
    keyedBody: changeOwnAccessSql(own, `o.id = $1 OR o.id = ANY(${descendantIds})`),
  };
}

const visibilityChangedStatement: StatementFunction = {
  name: 'portal_change_visibility',
  parameters: [...ownAccessParameters, 'text'],
  returns: 'known boolean',
  ...ownAccessBodies({ visibility: '$4::text', shares: 'o.shares' }),
};

function visibilityChanged(sql: Sql, event: VisibilityChanged, recorded: RecordedEvent): Promise<void> {
  return changeOwnAccess(sql, event, recorded, visibilityChangedStatement, [event.data.to]);
}

/** A share as the `shares` column keeps it (the shape of the domain's `Share`). */
const shareJson = `jsonb_build_object('principal', jsonb_build_object('type', $4::text, 'id', $5::text), 'permission', $6::text)`;

/** A share to a principal already shared with replaces that share in place; a new one goes last. */
const sharedStatement: StatementFunction = {
  name: 'portal_share_object',
  parameters: [...ownAccessParameters, 'text', 'text', 'text'],
  returns: 'known boolean',
  ...ownAccessBodies({
    visibility: 'o.visibility',
    shares: `CASE
       WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(shares) AS s
                     WHERE s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5)
       THEN (SELECT jsonb_agg(CASE WHEN s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5
                                   THEN ${shareJson} ELSE s END ORDER BY at)
               FROM jsonb_array_elements(shares) WITH ORDINALITY AS e(s, at))
       ELSE shares || jsonb_build_array(${shareJson})
     END`,
  }),
};

function shared(sql: Sql, event: ObjectShared, recorded: RecordedEvent): Promise<void> {
  const { principal, permission } = event.data;
  return changeOwnAccess(sql, event, recorded, sharedStatement, [principal.type, principal.id, permission]);
}

const unsharedStatement: StatementFunction = {
  name: 'portal_unshare_object',
  parameters: [...ownAccessParameters, 'text', 'text'],
  returns: 'known boolean',
  ...ownAccessBodies({
    visibility: 'o.visibility',
    shares: `COALESCE(
       (SELECT jsonb_agg(s ORDER BY at) FROM jsonb_array_elements(shares) WITH ORDINALITY AS e(s, at)
         WHERE NOT (s->'principal'->>'type' = $4 AND s->'principal'->>'id' = $5)),
       '[]'::jsonb)`,
  }),
};

function unshared(sql: Sql, event: ObjectUnshared, recorded: RecordedEvent): Promise<void> {
  const { principal } = event.data;
  return changeOwnAccess(sql, event, recorded, unsharedStatement, [principal.type, principal.id]);
}

/** The statements of the access events, kept as functions of the read schema (statement-function.ts). */
export const accessFunctions: readonly StatementFunction[] = [
  visibilityChangedStatement,
  sharedStatement,
  unsharedStatement,
];
