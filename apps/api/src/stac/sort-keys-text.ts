/**
 * A page row's sort key values arrive as the JSON text of their array (`["2024-…","abc"]`), not as a
 * `text[]`: a page makes tokens from two of its rows at most (its first and last), so pg's parse of the
 * key array of every row (3–5 % of the API's profile on a STAC page) was work thrown away 98 times in 100.
 */
export function sortKeysAsTextSql(sortKeysSql: string): string {
  return `to_json(${sortKeysSql})::text`;
}

/** The values of a row's sort keys, from the text `sortKeysAsTextSql` answers. */
export function sortKeyValues(text: string): (string | null)[] {
  const values: unknown = JSON.parse(text);
  if (!Array.isArray(values) || !values.every((value) => value === null || typeof value === 'string')) {
    throw new Error(`sort keys are not an array of texts: ${text.slice(0, 200)}`);
  }
  return values as (string | null)[];
}
