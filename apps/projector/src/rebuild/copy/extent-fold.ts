import { earlier, later, type Stamp } from './timestamps.js';

/** A box [west, south, east, north] as a collection's extent counts an item's (collection-extent.ts). */
export type Box = readonly [number, number, number, number];

/** `items_bbox`, `items_start`, `items_end` of a parent: the extent of the ready, live items below it. */
export interface ItemsExtent {
  readonly box: Box | null;
  readonly starts: Stamp | null;
  readonly ends: Stamp | null;
}

export const noExtent: ItemsExtent = { box: null, starts: null, ends: null };

/** What one item adds to its parent's extent: its box (whole longitudes across the antimeridian), start and end. */
export interface ItemSpan {
  readonly bbox: Box | null;
  readonly datetime: Stamp | null;
  readonly startDatetime: Stamp | null;
  readonly endDatetime: Stamp | null;
}

/** `extentBox` of collection-extent.ts. */
function extentBox(bbox: Box | null): Box | null {
  if (bbox === null) return null;
  return bbox[0] > bbox[2] ? [-180, bbox[1], 180, bbox[3]] : bbox;
}

function asExtent(item: ItemSpan): ItemsExtent {
  return {
    box: extentBox(item.bbox),
    starts: item.datetime ?? item.startDatetime,
    ends: item.datetime ?? item.endDatetime,
  };
}

/** `unionIntoParentSql` and the arriving item of a move: the parent's extent widened by one item. */
export function widened(parent: ItemsExtent, item: ItemSpan): ItemsExtent {
  const own = asExtent(item);
  let box = parent.box;
  if (own.box !== null) {
    box =
      box === null
        ? own.box
        : [
            Math.min(box[0], own.box[0]),
            Math.min(box[1], own.box[1]),
            Math.max(box[2], own.box[2]),
            Math.max(box[3], own.box[3]),
          ];
  }
  return { box, starts: earlier(parent.starts, own.starts), ends: later(parent.ends, own.ends) };
}

/** `itemsExtentWithoutSql`: the extent of the given items, each counted once (min and max over them). */
export function extentOf(items: Iterable<ItemSpan>): ItemsExtent {
  let extent = noExtent;
  for (const item of items) extent = widened(extent, item);
  return extent;
}
