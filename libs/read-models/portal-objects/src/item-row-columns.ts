/**
 * The columns of an `ItemRow` (stac-item.ts) over the item `o` and `p`, its parent (the API joins the
 * parent only when the caller may read it; the projector always, as it stores what a caller who may
 * read it gets). One list, so the stored JSON and the JSON the API builds read the same values.
 */
export const itemRowColumns = `o.id, o.stac_id, o.title, o.description, o.parent_id, p.kind AS parent_kind,
       p.stac_id AS parent_stac_id, o.status, o.geometry,
       o.bbox, CASE WHEN o.footprint IS NOT NULL
                    THEN ARRAY[ST_XMin(o.footprint), ST_YMin(o.footprint), ST_XMax(o.footprint), ST_YMax(o.footprint)]
               END AS footprint_bbox,
       o.datetime, o.start_datetime, o.end_datetime, o.properties, o.href_assets, o.links, o.tags, o.created_at,
       o.updated_at, o.version`;
