import { z } from 'zod';
import { boundedArray, expected, strictObject } from './messages.js';

/** Invented bound: how many boxes or intervals one extent may list. */
export const MAX_EXTENT_ENTRIES = 100;

const longitude = z
  .number({ error: expected('a number') })
  .min(-180, { error: 'must be a longitude from -180 to 180' })
  .max(180, { error: 'must be a longitude from -180 to 180' });
const latitude = z
  .number({ error: expected('a number') })
  .min(-90, { error: 'must be a latitude from -90 to 90' })
  .max(90, { error: 'must be a latitude from -90 to 90' });

/**
 * [west, south, east, north] in degrees. West may exceed east: such a box crosses the antimeridian
 * (as in STAC), so only south ≤ north is checked.
 */
export const bboxSchema = z
  .tuple([longitude, latitude, longitude, latitude], {
    error: expected('4 numbers: west, south, east, north'),
  })
  .superRefine(([, south, , north], ctx) => {
    if (south > north)
      ctx.addIssue({ code: 'custom', message: `south (${south}) must not be greater than north (${north})` });
  })
  .meta({
    description:
      '[west, south, east, north] in degrees; south ≤ north; west > east crosses the antimeridian.',
  });
export type BBox = z.infer<typeof bboxSchema>;

/**
 * Whether PostgreSQL's timestamptz reads the timestamp as the same instant: it takes four-digit years from
 * 0001 on and rounds to the microsecond, so `0000-…` fails to cast and a fraction from
 * `9999-12-31T23:59:59.9999995Z` on rounds into year 10000. The collection search casts the stored extent
 * (its `datetime`, `sortby` and `filter`), so either would fail every such search that reads the collection.
 */
function isPostgresTimestamp(text: string): boolean {
  if (text.startsWith('0000-')) return false;
  const fraction = /^9999-12-31T23:59:59\.(\d+)Z$/.exec(text)?.[1];
  return fraction === undefined || fraction.padEnd(7, '0').slice(0, 7) < '9999995';
}

/** UTC only, because the contract promises UTC timestamps back and we store what we are given. */
export const utcTimestampSchema = z.iso
  .datetime({
    // Stops here on a bad format, so the range check below only reads well-formed timestamps.
    abort: true,
    error: expected('an RFC 3339 timestamp in UTC, e.g. 2024-01-31T12:00:00Z'),
  })
  .refine(isPostgresTimestamp, {
    error: 'must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z',
  });

/** [start, end or null]: null as the end means open-ended, as the contract shows. */
export const temporalIntervalSchema = z
  .tuple([utcTimestampSchema, utcTimestampSchema.nullable()], {
    error: expected('a pair [start, end or null]'),
  })
  .superRefine(([start, end], ctx) => {
    if (end !== null && Date.parse(start) > Date.parse(end)) {
      ctx.addIssue({ code: 'custom', message: 'start must not be after end' });
    }
  })
  .meta({
    description:
      '[start, end or null] as RFC 3339 UTC timestamps from 0001 to 9999; start ≤ end; a null end is open-ended.',
  });
export type TemporalInterval = z.infer<typeof temporalIntervalSchema>;

/** The extent a client may give for a collection (create or update). */
export const collectionExtentSchema = strictObject({
  spatial: strictObject({
    bbox: boundedArray(bboxSchema, {
      min: 1,
      max: MAX_EXTENT_ENTRIES,
      unit: 'bounding box',
      units: 'bounding boxes',
    }),
  }),
  temporal: strictObject({
    interval: boundedArray(temporalIntervalSchema, { min: 1, max: MAX_EXTENT_ENTRIES, unit: 'interval' }),
  }),
});
export type CollectionExtent = z.infer<typeof collectionExtentSchema>;

/** The extent in the collection record; computed extents may be empty before any item is ready. */
export const collectionExtentRecordSchema = z.object({
  spatial: z.object({ bbox: z.array(bboxSchema) }),
  temporal: z.object({ interval: z.array(temporalIntervalSchema) }),
});
export type CollectionExtentRecord = z.infer<typeof collectionExtentRecordSchema>;
