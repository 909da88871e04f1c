/**
 * The item's `collection`, as SQL over `o` (the item) and `p` (its parent when the caller may read it):
 * the parent's STAC id (the name its client gave it, else its UUID) when that is a collection. Its own
 * module because the sort keys and the filter's queryables both read it, and the sort keys read the
 * filter's property SQL too: declared with the sort keys, it made an import cycle, and a program that
 * loaded the sort keys first stopped on the filter reading it before it existed
 * (scripts/import-cycles.unit.test.ts keeps the project free of cycles).
 */
export const visibleCollectionSql = `CASE WHEN p.kind = 'collection' THEN COALESCE(p.stac_id, o.parent_id::text) END`;
