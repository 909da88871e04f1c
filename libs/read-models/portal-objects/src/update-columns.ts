import type { PortalObjectChanges, PortalObjectUpdated } from '@portal/domain';
import { itemColumns } from './new-object-row.js';

// The columns an update changes, as set statements carry them: `unnest` of one array per column, a flag
// per field saying whether the event changed it (the row keeps its value otherwise). Shared by the run's
// updates (run-updates.ts) and its renames (run-renames.ts), so both write what the single update writes.

/** The fields an update may change beside its title (set apart: it takes a slug) and an item's metadata. */
type PlainField = Exclude<keyof PortalObjectChanges, 'title' | 'metadata'>;

/** Each field: its column, how its value travels, and whether it is stored as JSON. */
const fields: readonly (readonly [PlainField, string, 'text' | 'jsonb'])[] = [
  ['description', 'description', 'text'],
  ['links', 'links', 'jsonb'],
  ['license', 'license', 'text'],
  ['keywords', 'keywords', 'jsonb'],
  ['extent', 'extent', 'jsonb'],
  ['assets', 'href_assets', 'jsonb'],
];

type ItemColumns = ReturnType<typeof itemColumns>;

/** An item's metadata columns, as its create fills them (new-object-row.ts); all set together. */
const metadataColumns: readonly (readonly [string, string, (columns: ItemColumns) => unknown])[] = [
  ['tags', 'jsonb', (columns) => columns.tags],
  // An array per row cannot travel in an array of arrays (PostgreSQL's are rectangular): as its literal.
  ['bbox', 'text', (columns) => (columns.bbox ? `{${columns.bbox.join(',')}}` : null)],
  ['geometry', 'jsonb', (columns) => columns.geometry],
  ['datetime', 'timestamptz', (columns) => columns.datetime],
  ['start_datetime', 'timestamptz', (columns) => columns.startDatetime],
  ['end_datetime', 'timestamptz', (columns) => columns.endDatetime],
  ['properties', 'jsonb', (columns) => columns.properties],
];

/** How many parameters (arrays) the changed columns take. */
export const changedColumnParameters = 2 * fields.length + 1 + metadataColumns.length;

/** The `unnest` arguments of the changed columns, from parameter `$first` on. */
export function changedColumnArrays(first: number): string {
  const metadataFlag = first + 2 * fields.length;
  return [
    ...fields.map(
      ([, , type], index) => `$${first + 2 * index}::boolean[], $${first + 2 * index + 1}::${type}[]`,
    ),
    `$${metadataFlag}::boolean[]`,
    ...metadataColumns.map(([, type], index) => `$${metadataFlag + 1 + index}::${type}[]`),
  ].join(', ');
}

/** Their names in the `unnest` alias list, in the same order. */
export const changedColumnNames = [
  ...fields.map(([, column]) => `set_${column}, ${column}`),
  'set_metadata',
  ...metadataColumns.map(([column]) => column),
].join(', ');

/**
 * The assignments of `UPDATE portal_objects o … FROM <input> u`: each column from `u` where its flag is
 * set, else its own value; an item's metadata with the footprint from it.
 */
export const changedColumnAssignments = [
  ...fields.map(
    ([, column]) => `${column} = CASE WHEN u.set_${column} THEN u.${column} ELSE o.${column} END`,
  ),
  ...metadataColumns.map(
    ([column, type]) =>
      `${column} = CASE WHEN u.set_metadata THEN ${type === 'text' ? `u.${column}::double precision[]` : column === 'tags' ? `COALESCE(u.tags, '[]')` : `u.${column}`} ELSE o.${column} END`,
  ),
  // From the new geometry, else the new bbox, as the create computes it (schema.sql).
  `footprint = CASE WHEN NOT u.set_metadata THEN o.footprint
                    WHEN u.geometry IS NOT NULL OR u.bbox IS NOT NULL
                    THEN portal_footprint(u.geometry, u.bbox::double precision[]) END`,
].join(',\n           ');

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The arrays of the changed columns (`changedColumnParameters` of them), one element per update. */
export function changedColumnValues(
  updates: readonly (readonly [PortalObjectUpdated, unknown])[],
): unknown[] {
  const values: unknown[] = [];
  for (const [field, , type] of fields) {
    values.push(updates.map(([event]) => event.data.changes[field] !== undefined));
    values.push(
      updates.map(([event]) => {
        const value = event.data.changes[field];
        return type === 'jsonb' ? jsonOrNull(value) : (value ?? null);
      }),
    );
  }
  const metadataOf = updates.map(([event]) => {
    const { metadata } = event.data.changes;
    return metadata === undefined ? null : itemColumns(metadata);
  });
  values.push(metadataOf.map((columns) => columns !== null));
  for (const [, , value] of metadataColumns) {
    values.push(metadataOf.map((columns) => (columns === null ? null : value(columns))));
  }
  return values;
}
