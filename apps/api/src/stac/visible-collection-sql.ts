/**
 * The item's `collection`, as SQL over `o` (the item) and `p` (its parent when the caller may read it):
 * the parent's STAC id (the name its client gave it, else its UUID) when that is a collection. Its own
 * module because the sort keys and the filter's queryables both read it, and the sort keys read the
 * filter's property SQL too: declared in either, it made an import cycle that broke whichever module
 * was loaded first.
 */
export const visibleCollectionSql = `CASE WHEN p.kind = 'collection' THEN COALESCE(p.stac_id, o.parent_id::text) END`;
