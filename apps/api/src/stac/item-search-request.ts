import { findGeometryProblem, STAC_DEFAULT_LIMIT, STAC_MAX_IDS, STAC_MAX_LIMIT } from '@portal/contracts';
import type { StacSearchBody } from '@portal/contracts';
import { bboxGeometry, parseBbox, parseBboxText } from './bbox.js';
import { parseDatetime, type TimeInterval } from './datetime-interval.js';
import { itemSort, type ItemSort } from './item-sort.js';
import { decodeItemToken, type ItemCursor } from './search-token.js';
import { parseSortbyBody, parseSortbyText } from './sort-request.js';
import { badParameter } from './stac-problem.js';

/**
 * Which items a request is about, whichever way it came (GET query, POST body, a collection's path):
 * what a search pages through and an aggregation counts.
 */
export interface ItemMatch {
  /** The area to intersect footprints with (from `bbox` or `intersects`), as GeoJSON. */
  readonly area: Record<string, unknown> | null;
  readonly interval: TimeInterval | null;
  readonly ids: readonly string[] | null;
  readonly collections: readonly string[] | null;
}

/** One item search: the items it matches, in pages of `limit` in the order of `sort`. */
export interface ItemSearch extends ItemMatch {
  readonly limit: number;
  readonly sort: ItemSort;
  /** Where the page starts (from `token`: after a page, or before one), or null for the first page. */
  readonly cursor: ItemCursor | null;
}

/** The values of a GET, as the query string gives them (repeated parameters are refused). */
export type SearchQuery = Readonly<Partial<Record<keyof StacSearchBody, string>>>;

/**
 * The page size. Above the maximum it reads as the maximum, not an error: STAC's item search and OGC API
 * Features both ask a server to serve at most its maximum rather than refuse (docs/stac.md, "Item search").
 */
function parseLimit(value: number | undefined): number {
  if (value === undefined) return STAC_DEFAULT_LIMIT;
  if (!Number.isInteger(value) || value < 1) {
    throw badParameter(
      'limit',
      `must be a positive integer (at most ${STAC_MAX_LIMIT} are served)`,
      'INVALID_LIMIT',
    );
  }
  return Math.min(value, STAC_MAX_LIMIT);
}

export function parseLimitText(text: string | undefined, whenAbsent = STAC_DEFAULT_LIMIT): number {
  if (text === undefined) return whenAbsent;
  // Any number of digits: a limit past what Number holds exactly is still above the maximum.
  if (!/^\d+$/.test(text.trim())) {
    throw badParameter(
      'limit',
      `must be a positive integer (at most ${STAC_MAX_LIMIT} are served)`,
      'INVALID_LIMIT',
    );
  }
  return parseLimit(Math.min(Number(text), STAC_MAX_LIMIT + 1));
}

/** A list of ids: a comma-separated string or an array of strings, never empty, bounded. */
function idList(name: string, value: string | readonly string[] | undefined): readonly string[] | null {
  if (value === undefined) return null;
  const list = (typeof value === 'string' ? value.split(',') : value).map((id) => id.trim());
  if (list.length === 0 || list.some((id) => id === '')) {
    throw badParameter(name, 'must list ids, none of them empty');
  }
  if (list.length > STAC_MAX_IDS) throw badParameter(name, `must list at most ${STAC_MAX_IDS} ids`);
  return [...new Set(list)];
}

function parseIntersectsText(text: string): Record<string, unknown> {
  let geometry: unknown;
  try {
    geometry = JSON.parse(text);
  } catch {
    throw badParameter('intersects', 'must be a GeoJSON geometry as JSON text', 'INVALID_GEOMETRY');
  }
  const problem = findGeometryProblem(geometry);
  if (problem !== undefined) {
    const where = problem.path.length > 0 ? ` (at ${problem.path.map(String).join('.')})` : '';
    throw badParameter('intersects', `${problem.message}${where}`, 'INVALID_GEOMETRY');
  }
  return geometry as Record<string, unknown>;
}

function area(
  bbox: Record<string, unknown> | null,
  intersects: Record<string, unknown> | null,
): Record<string, unknown> | null {
  // STAC: "bbox and intersects are mutually exclusive"; quietly preferring one would answer another question.
  if (bbox !== null && intersects !== null) {
    throw badParameter('intersects', 'must not be given together with bbox', 'INVALID_PARAMETER');
  }
  return bbox ?? intersects;
}

/** The items a GET names (its `bbox`, `intersects`, `datetime`, `ids` and `collections`). */
export function matchFromQuery(query: SearchQuery): ItemMatch {
  return {
    area: area(
      query.bbox === undefined ? null : bboxGeometry(parseBboxText(query.bbox)),
      query.intersects === undefined ? null : parseIntersectsText(query.intersects),
    ),
    interval: query.datetime === undefined ? null : parseDatetime(query.datetime),
    ids: idList('ids', query.ids),
    collections: idList('collections', query.collections),
  };
}

/** The items a POST body names. */
export function matchFromBody(
  body: Pick<StacSearchBody, 'bbox' | 'intersects' | 'datetime' | 'ids' | 'collections'>,
): ItemMatch {
  return {
    area: area(
      body.bbox === undefined ? null : bboxGeometry(parseBbox(body.bbox)),
      (body.intersects as Record<string, unknown> | undefined) ?? null,
    ),
    interval: body.datetime === undefined ? null : parseDatetime(body.datetime),
    ids: idList('ids', body.ids),
    collections: idList('collections', body.collections),
  };
}

/** A GET search (or a collection's items, with `collections` set by the path). */
export function searchFromQuery(query: SearchQuery): ItemSearch {
  const sort = itemSort(query.sortby === undefined ? null : parseSortbyText(query.sortby));
  return {
    ...matchFromQuery(query),
    limit: parseLimitText(query.limit),
    sort,
    cursor: query.token === undefined ? null : decodeItemToken(sort, query.token),
  };
}

/** A POST search, its body already checked against the contract's schema (geometry included). */
export function searchFromBody(body: StacSearchBody): ItemSearch {
  const sort = itemSort(body.sortby === undefined ? null : parseSortbyBody(body.sortby));
  return {
    ...matchFromBody(body),
    limit: parseLimit(body.limit),
    sort,
    cursor: body.token === undefined ? null : decodeItemToken(sort, body.token),
  };
}
