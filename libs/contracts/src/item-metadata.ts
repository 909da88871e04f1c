import { z } from 'zod';
import { bboxSchema } from './extent.js';
import { geometrySchema } from './geojson.js';
import { boundedArray, boundedText, expected, jsonObject, MAX_JSON_DEPTH, strictObject } from './messages.js';

/** Invented bounds for an item's descriptive metadata. */
export const MAX_TAGS = 100;
export const TAG_MAX = 64;
export const MAX_PROPERTIES_BYTES = 64 * 1024;

/**
 * PostgreSQL's timestamptz reads four-digit years from 0001 on; an offset can carry a valid input
 * outside them (`0000-…`, or `9999-12-31T23:00:00-02:00`), and its UTC form would fail the INSERT.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** RFC 3339 with seconds and a time zone, as STAC's datetime fields; a local time has no instant. */
const rfc3339 = z.iso.datetime({
  offset: true,
  // Stops here on a bad format, so the range check and the body's cross-field rules skip the value.
  abort: true,
  error: expected(
    'an RFC 3339 date-time with a time zone, e.g. 2024-01-31T12:00:00Z or 2024-01-31T14:00:00+02:00',
  ),
});

/** Parsed to UTC (`2024-01-31T12:00:00.000Z`); digits past the millisecond are dropped. */
export const itemDatetimeSchema = rfc3339
  .refine(
    (text) => {
      const instant = Date.parse(text);
      return instant >= EARLIEST && instant <= LATEST;
    },
    { error: 'must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once converted to UTC' },
  )
  .transform((text) => new Date(text).toISOString())
  .meta({ description: 'RFC 3339 date-time with a time zone; answered in UTC.' });

export const tagsSchema = boundedArray(boundedText(1, TAG_MAX), { max: MAX_TAGS, unit: 'tag' })
  .superRefine((tags, ctx) => {
    const firstIndex = new Map<string, number>();
    tags.forEach((tag, index) => {
      const earlier = firstIndex.get(tag);
      if (earlier === undefined) firstIndex.set(tag, index);
      else ctx.addIssue({ code: 'custom', path: [index], message: `must not repeat tags[${earlier}]` });
    });
  })
  .meta({
    uniqueItems: true,
    description: `At most ${MAX_TAGS} distinct tags (case-sensitive), each 1..${TAG_MAX} characters.`,
  });

export const MAX_PROPERTIES_DEPTH = MAX_JSON_DEPTH;

const utf8 = new TextEncoder();

// jsonObject() bounds the depth (and aborts when it is exceeded), so serialising below is safe.
export const propertiesSchema = jsonObject()
  .refine((properties) => utf8.encode(JSON.stringify(properties)).byteLength <= MAX_PROPERTIES_BYTES, {
    error: `must be at most 64 KiB (${MAX_PROPERTIES_BYTES} bytes) as JSON`,
  })
  .meta({
    description:
      `Free-form JSON object: at most 64 KiB as (compact, UTF-8) JSON, ` +
      `nested at most ${MAX_PROPERTIES_DEPTH} levels deep.`,
  });

/**
 * The optional metadata of an item, to spread into a request body's shape. The body must also apply
 * `checkItemMetadata`, which holds the rules between fields.
 */
export const itemMetadataShape = {
  geometry: geometrySchema.exactOptional(),
  bbox: bboxSchema.exactOptional(),
  datetime: itemDatetimeSchema.exactOptional().meta({ description: 'When the data was captured.' }),
  start_datetime: itemDatetimeSchema
    .exactOptional()
    .meta({ description: 'Start of the time range; needs end_datetime; not with datetime.' }),
  end_datetime: itemDatetimeSchema
    .exactOptional()
    .meta({ description: 'End of the time range (inclusive); needs start_datetime; not with datetime.' }),
  tags: tagsSchema.exactOptional(),
  properties: propertiesSchema.exactOptional(),
};

/**
 * An item's metadata in a portal PATCH (docs/decisions.md, Item metadata by the portal PATCH): each
 * field given replaces the item's, `null` clears it. The time is one value: any of its three fields
 * given replaces the whole time (an instant, a range, or none), under the create's rules. A new geometry
 * without a bbox drops a bbox given before (it is derived from the geometry again). `properties` is a
 * JSON merge patch (RFC 7386) of the item's free-form properties, as a STAC PATCH merges them.
 */
export const itemMetadataPatchShape = {
  geometry: geometrySchema
    .nullable()
    .exactOptional()
    .meta({ description: 'GeoJSON geometry; null removes it. Given without bbox, the bbox is derived.' }),
  bbox: bboxSchema.nullable().exactOptional().meta({ description: 'null: derived from the geometry.' }),
  datetime: itemDatetimeSchema
    .nullable()
    .exactOptional()
    .meta({ description: "Any time field given replaces the item's time as a whole; null: none." }),
  start_datetime: itemDatetimeSchema
    .nullable()
    .exactOptional()
    .meta({ description: 'Start of the time range; needs end_datetime; not with datetime.' }),
  end_datetime: itemDatetimeSchema
    .nullable()
    .exactOptional()
    .meta({ description: 'End of the time range (inclusive); needs start_datetime; not with datetime.' }),
  tags: tagsSchema.exactOptional().meta({ description: 'The whole list of tags.' }),
  properties: propertiesSchema
    .nullable()
    .exactOptional()
    .meta({
      description:
        'A JSON merge patch (RFC 7386) of the free-form properties: objects merge, null removes a key; ' +
        'null as the whole value removes every property. The merged result keeps the 64 KiB bound.',
    }),
};

/** The time fields as any body carrying them holds them; null (a PATCH clearing one) counts as absent. */
export interface ItemTimeFields {
  readonly datetime?: string | null;
  readonly start_datetime?: string | null;
  readonly end_datetime?: string | null;
}

const given = (value: string | null | undefined): value is string => value !== undefined && value !== null;

/**
 * STAC's rule: an instant (`datetime`), or a range (`start_datetime` and `end_datetime`, start ≤ end),
 * or no time at all. For `.superRefine(checkItemMetadata)` on the body. zod skips it when a time has
 * a bad format, but may run it beside other fields' issues; `Date.parse` reads the offset, so the order
 * holds for a time whether or not it was converted to UTC yet.
 */
export function checkItemMetadata(body: ItemTimeFields, ctx: z.RefinementCtx): void {
  const { datetime, start_datetime: start, end_datetime: end } = body;
  const issue = (field: keyof ItemTimeFields, message: string) => {
    ctx.addIssue({ code: 'custom', path: [field], message });
  };
  if (given(datetime) && (given(start) || given(end))) {
    issue('datetime', 'must not be given with start_datetime or end_datetime: give one or the other');
  }
  if (given(start) && !given(end)) issue('end_datetime', 'is required when start_datetime is given');
  if (given(end) && !given(start)) issue('start_datetime', 'is required when end_datetime is given');
  if (given(start) && given(end) && Date.parse(end) < Date.parse(start)) {
    issue('end_datetime', 'must not be before start_datetime');
  }
}

/** The metadata alone, strict and with the cross-field rules: what the shape gives a body. */
export const itemMetadataSchema = strictObject(itemMetadataShape).superRefine(checkItemMetadata);
export type ItemMetadata = z.infer<typeof itemMetadataSchema>;
