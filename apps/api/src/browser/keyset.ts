import { isUuid } from '@portal/domain';
import { isStorableText, type NodeSort, type SortOrder } from '@portal/contracts';
import { HttpProblem } from '../http/problem.js';
import { encodeCursor } from '../read-model/cursor.js';
import type { QueryParams } from '@portal/read-model-core';

/** The order of a page: the sort key, its direction, and the id that breaks every tie. */
export interface Ordering {
  readonly sort: NodeSort;
  readonly order: SortOrder;
}

interface SortColumn {
  readonly column: string;
  readonly type: 'text' | 'timestamptz';
}

const sortColumns: Readonly<Record<NodeSort, readonly SortColumn[]>> = {
  kind: [
    { column: 'kind', type: 'text' },
    { column: 'title', type: 'text' },
  ],
  title: [{ column: 'title', type: 'text' }],
  createdAt: [{ column: 'created_at', type: 'timestamptz' }],
  updatedAt: [{ column: 'updated_at', type: 'timestamptz' }],
};

/**
 * Timestamps travel in cursors with PostgreSQL's microseconds: a JavaScript Date keeps milliseconds only,
 * and a rounded key would repeat or skip rows on the page boundary.
 */
const keyTimestamp = (expression: string) =>
  `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const KEY_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The row's sort key as the select list returns it, as `key0`, `key1`, … */
export function keySelect(alias: string, ordering: Ordering): string {
  return sortColumns[ordering.sort]
    .map(({ column, type }, index) => {
      const expression = `${alias}.${column}`;
      return `${type === 'timestamptz' ? keyTimestamp(expression) : expression} AS key${index}`;
    })
    .join(', ');
}

export function orderByClause(alias: string, ordering: Ordering): string {
  const direction = ordering.order === 'asc' ? 'ASC' : 'DESC';
  return [...sortColumns[ordering.sort].map(({ column }) => column), 'id']
    .map((column) => `${alias}.${column} ${direction}`)
    .join(', ');
}

/** Rows strictly after the cursor's row in this order: one row comparison, an index range condition. */
export function afterKey(alias: string, ordering: Ordering, key: CursorKey, params: QueryParams): string {
  const columns = sortColumns[ordering.sort];
  const left = [...columns.map(({ column }) => `${alias}.${column}`), `${alias}.id`].join(', ');
  const right = [
    ...columns.map(({ type }, index) => params.add(key.values[index], type)),
    params.add(key.id, 'uuid'),
  ].join(', ');
  return `(${left}) ${ordering.order === 'asc' ? '>' : '<'} (${right})`;
}

export interface CursorKey {
  readonly values: readonly string[];
  readonly id: string;
}

/** What a page query returns beside its columns: the sort key of each row. */
export interface KeyedRow {
  readonly id: string;
  readonly key0: string;
  readonly key1?: string;
}

export function cursorOf(ordering: Ordering, row: KeyedRow): string {
  const values = sortColumns[ordering.sort].map((_, index) => (index === 0 ? row.key0 : (row.key1 ?? '')));
  return encodeCursor([ordering.sort, ordering.order, ...values, row.id]);
}

const invalid = () => new HttpProblem(400, 'cursor: not a cursor returned by this API', 'INVALID_CURSOR');

function validKeyValue(value: unknown, type: SortColumn['type']): value is string {
  if (typeof value !== 'string' || !isStorableText(value)) return false;
  return type === 'text' || (KEY_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)));
}

function cursorParts(cursor: string): unknown[] {
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parts)) return parts;
  } catch {
    // fall through to the 400 below
  }
  throw invalid();
}

/**
 * A cursor carries the order it was issued for: with another `sort` or `order` its key would point into
 * a different sequence, so that answers 400 rather than a page with gaps or repeats.
 */
export function decodeKeysetCursor(cursor: string, ordering: Ordering): CursorKey {
  const [sort, order, ...rest] = cursorParts(cursor);
  const issuedFor = Object.entries(sortColumns).find(([name]) => name === sort);
  if (!issuedFor || (order !== 'asc' && order !== 'desc')) throw invalid();
  if (sort !== ordering.sort || order !== ordering.order) {
    throw new HttpProblem(
      400,
      `cursor: continues sort=${issuedFor[0]}&order=${order}, not sort=${ordering.sort}&order=${ordering.order}`,
      'CURSOR_ORDER_MISMATCH',
    );
  }
  const columns = sortColumns[ordering.sort];
  const id = rest.at(-1);
  const values = rest.slice(0, -1);
  if (values.length !== columns.length || !isUuid(id)) throw invalid();
  if (!values.every((value, index) => validKeyValue(value, columns[index]?.type ?? 'text'))) throw invalid();
  return { values, id };
}
