/**
 * The item time expressions, exactly as the read model's STAC indexes are declared (schema.sql of the
 * portal-objects read model): the start of the item's time and its end. An item with neither `datetime`
 * nor a range is dated by its creation. The planner uses an index only for the expression it declares,
 * so every query writes these, never an equivalent.
 */
export const itemStart = (alias: string) =>
  `COALESCE(${alias}.start_datetime, ${alias}.datetime, ${alias}.created_at)`;
export const itemEnd = (alias: string) =>
  `COALESCE(${alias}.end_datetime, ${alias}.datetime, ${alias}.created_at)`;

/**
 * The longest time (end − start) of any live item, from `portal_objects_stac_time_length` (one probe of a
 * small index: it holds only items with a range); zero when there is none. Visibility plays no part:
 * it only bounds an index range, it never decides which rows answer.
 */
export const longestTimeSql = `(SELECT GREATEST(COALESCE(max(${itemEnd('l')} - ${itemStart('l')}), interval '0'), interval '0')
    FROM read.portal_objects l
   WHERE l.deleted_at IS NULL AND l.kind = 'item' AND (l.start_datetime IS NOT NULL OR l.end_datetime IS NOT NULL))`;
