import type { QueryParams } from '@portal/read-model-core';
import type { TextQuery } from './free-text-request.js';
import type { ItemCondition } from './item-query.js';

/**
 * The words an item is found by: its title, its description and its `keywords` property (the JSON text
 * of the array: PostgreSQL's parser keeps the words and drops the brackets and quotes), through the
 * `simple` configuration (lower case, no stemming and no stop words: the portal's text is in any
 * language). Written exactly as `portal_objects_stac_text` declares it (portal-objects schema.sql), so
 * the planner can answer a search from that GIN index.
 */
export const itemTextVector = (alias: string) =>
  `to_tsvector('simple'::regconfig, ${alias}.title || ' ' || COALESCE(${alias}.description, '') || ' ' || COALESCE(${alias}.properties ->> 'keywords', ''))`;

/** The tsquery of a free-text tree; each term's words (a phrase's too) must follow one another. */
function tsquery(query: TextQuery, params: QueryParams): string {
  switch (query.kind) {
    case 'term':
      return `phraseto_tsquery('simple'::regconfig, ${params.add(query.text, 'text')})`;
    case 'and':
      return `(${query.args.map((arg) => tsquery(arg, params)).join(' && ')})`;
    case 'or':
      return `(${query.args.map((arg) => tsquery(arg, params)).join(' || ')})`;
    case 'not':
      return `(!! ${tsquery(query.arg, params)})`;
  }
}

/** SQL that `vector` (a tsvector expression) holds what `query` asks for. */
export function textMatchSql(vector: string, query: TextQuery, params: QueryParams): string {
  return `${vector} @@ ${tsquery(query, params)}`;
}

/** `q` as a search condition over the item row `o`. */
export function freeTextCondition(query: TextQuery): ItemCondition {
  return (params) => textMatchSql(itemTextVector('o'), query, params);
}
