import type { Cql2Node } from './ast.js';
import { Cql2Error } from './errors.js';
import { parseCql2Json } from './parse-json.js';
import { parseCql2Text } from './parse-text.js';

/** The CRS URIs accepted as `filter-crs`; both mean longitude, latitude in degrees (WGS 84). */
export const CQL2_FILTER_CRS = [
  'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
  'http://www.opengis.net/def/crs/EPSG/0/4326',
] as const;

export interface Cql2FilterRequest {
  /** `filter`: CQL2 text, CQL2 JSON as a decoded value, or CQL2 JSON as a string (GET with cql2-json). */
  filter: unknown;
  /** `filter-lang`: 'cql2-text' or 'cql2-json'; when absent, a string is text and anything else JSON. */
  lang?: string | undefined;
  /** `filter-crs`: one of CQL2_FILTER_CRS when present. */
  crs?: string | undefined;
}

/** The filter parameters of an OGC API / STAC request, parsed; every problem is a Cql2Error (a 400). */
export function parseCql2Filter(request: Cql2FilterRequest): Cql2Node {
  const { filter, lang, crs } = request;
  if (crs !== undefined && !(CQL2_FILTER_CRS as readonly string[]).includes(crs)) {
    throw new Cql2Error(`unsupported filter-crs '${crs}' (supported: ${CQL2_FILTER_CRS.join(', ')})`);
  }
  if (lang !== undefined && lang !== 'cql2-text' && lang !== 'cql2-json') {
    throw new Cql2Error(`unsupported filter-lang '${lang}' (supported: cql2-text, cql2-json)`);
  }
  if (lang === 'cql2-text' || (lang === undefined && typeof filter === 'string')) {
    if (typeof filter !== 'string') throw new Cql2Error('a cql2-text filter must be a string');
    return parseCql2Text(filter);
  }
  if (typeof filter !== 'string') return parseCql2Json(filter);
  let decoded: unknown;
  try {
    decoded = JSON.parse(filter);
  } catch {
    throw new Cql2Error('a cql2-json filter must be valid JSON');
  }
  return parseCql2Json(decoded);
}
