import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  checkItemMetadata,
  itemMetadataSchema,
  itemMetadataShape,
  MAX_PROPERTIES_BYTES,
  MAX_PROPERTIES_DEPTH,
  MAX_TAGS,
  TAG_MAX,
} from './item-metadata.js';
import { strictObject } from './messages.js';
import { titleSchema } from './portal-fields.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { itEnforcesStringBounds } from './test-support/string-bounds.js';

const datetimeFormat =
  'must be an RFC 3339 date-time with a time zone, e.g. 2024-01-31T12:00:00Z or 2024-01-31T14:00:00+02:00';
const datetimeRange = 'must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once converted to UTC';
const tooLarge = `must be at most 64 KiB (${MAX_PROPERTIES_BYTES} bytes) as JSON`;
const tooDeep = `must not nest objects and arrays more than ${MAX_PROPERTIES_DEPTH} levels deep`;

const polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [5.9, 45.8],
      [10.5, 45.8],
      [10.5, 47.8],
      [5.9, 47.8],
      [5.9, 45.8],
    ],
  ],
};

describe('item metadata: whole bodies', () => {
  it('accepts no metadata at all', () => {
    expect(acceptanceOf(itemMetadataSchema, {})).toEqual({});
  });

  it('accepts every field, times converted to UTC', () => {
    const body = {
      geometry: polygon,
      bbox: [5.9, 45.8, 10.5, 47.8],
      start_datetime: '2024-01-31T14:00:00+02:00',
      end_datetime: '2024-02-01T00:00:00Z',
      tags: ['temperature', 'switzerland'],
      properties: { 'eo:cloud_cover': 12.5, instruments: ['msi'], nested: { a: null } },
    };
    expect(acceptanceOf(itemMetadataSchema, body)).toEqual({
      ...body,
      start_datetime: '2024-01-31T12:00:00.000Z',
      end_datetime: '2024-02-01T00:00:00.000Z',
    });
  });

  it('rejects a field it does not know', () => {
    expect(rejectionOf(itemMetadataSchema, { datetimes: '2024-01-31T12:00:00Z' }).message).toBe(
      'datetimes: is not an allowed field',
    );
  });

  it('names the geometry field and the place in it', () => {
    const open = { type: 'Polygon', coordinates: [polygon.coordinates[0]?.slice(0, 4)] };
    expect(rejectionOf(itemMetadataSchema, { geometry: open }).message).toBe(
      'geometry.coordinates[0][3]: a linear ring must be closed (its first and last positions equal)',
    );
  });

  it('rejects a null geometry: a create gives one or leaves it out', () => {
    expect(rejectionOf(itemMetadataSchema, { geometry: null }).message).toBe(
      'geometry: must be a GeoJSON geometry object',
    );
  });
});

describe('item metadata: bbox', () => {
  it('accepts a box crossing the antimeridian (west > east)', () => {
    expect(acceptanceOf(itemMetadataSchema, { bbox: [170, -10, -170, 10] })).toEqual({
      bbox: [170, -10, -170, 10],
    });
  });

  it.each<[unknown, string]>([
    [[0, 20, 10, 10], 'bbox: south (20) must not be greater than north (10)'],
    [[0, -90.5, 10, 10], 'bbox[1]: must be a latitude from -90 to 90'],
    [[-181, 0, 10, 10], 'bbox[0]: must be a longitude from -180 to 180'],
    [[0, 0, 10], 'bbox: must be 4 numbers: west, south, east, north'],
    [[0, 0, 10, 10, 0, 1], 'bbox: must be 4 numbers: west, south, east, north'],
    [null, 'bbox: must be 4 numbers: west, south, east, north'],
  ])('rejects %j', (bbox, message) => {
    expect(rejectionOf(itemMetadataSchema, { bbox }).message).toBe(message);
  });
});

describe('item metadata: datetime fields', () => {
  it.each([
    ['2024-01-31T12:00:00Z', '2024-01-31T12:00:00.000Z'],
    ['2024-01-31T14:00:00+02:00', '2024-01-31T12:00:00.000Z'],
    ['2024-01-31T00:30:00-05:30', '2024-01-31T06:00:00.000Z'],
    ['2024-01-31T12:00:00-00:00', '2024-01-31T12:00:00.000Z'],
    ['2024-01-31T12:00:00.5Z', '2024-01-31T12:00:00.500Z'],
    ['2024-01-31T12:00:00.123456789Z', '2024-01-31T12:00:00.123Z'],
    ['2024-02-29T23:59:59+23:59', '2024-02-29T00:00:59.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('datetime %s is parsed as %s', (datetime, utc) => {
    expect(acceptanceOf(itemMetadataSchema, { datetime })).toEqual({ datetime: utc });
  });

  it.each<[string, unknown, string]>([
    ['a date alone', '2024-01-31', datetimeFormat],
    ['a local time (no time zone)', '2024-01-31T12:00:00', datetimeFormat],
    ['no seconds', '2024-01-31T12:00Z', datetimeFormat],
    ['a space for T', '2024-01-31 12:00:00Z', datetimeFormat],
    ['an offset without colon', '2024-01-31T12:00:00+0200', datetimeFormat],
    ['a day that does not exist', '2023-02-29T12:00:00Z', datetimeFormat],
    ['hour 24', '2024-01-31T24:00:00Z', datetimeFormat],
    ['a number (epoch milliseconds)', 1706702400000, datetimeFormat],
    ['null', null, datetimeFormat],
    ['year 0', '0000-06-01T00:00:00Z', datetimeRange],
    ['a time that is year 0 in UTC', '0001-01-01T00:30:00+01:00', datetimeRange],
    ['a time that is year 10000 in UTC', '9999-12-31T23:30:00-01:00', datetimeRange],
  ])('rejects %s', (_name, datetime, message) => {
    expect(rejectionOf(itemMetadataSchema, { datetime }).message).toBe(`datetime: ${message}`);
    expect(
      rejectionOf(itemMetadataSchema, { start_datetime: datetime, end_datetime: datetime }).details,
    ).toEqual([
      { path: 'start_datetime', message },
      { path: 'end_datetime', message },
    ]);
  });

  it('accepts a range, and a range of one instant', () => {
    acceptanceOf(itemMetadataSchema, {
      start_datetime: '2024-01-01T00:00:00Z',
      end_datetime: '2024-12-31T23:59:59Z',
    });
    // 12:00 at +02:00 and 11:00 at +01:00 are the same instant.
    expect(
      acceptanceOf(itemMetadataSchema, {
        start_datetime: '2024-01-01T12:00:00+02:00',
        end_datetime: '2024-01-01T11:00:00+01:00',
      }),
    ).toEqual({ start_datetime: '2024-01-01T10:00:00.000Z', end_datetime: '2024-01-01T10:00:00.000Z' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'an end before the start',
      { start_datetime: '2024-02-01T00:00:00Z', end_datetime: '2024-01-31T23:59:59.999Z' },
      'end_datetime: must not be before start_datetime',
    ],
    [
      'an end before the start once offsets are applied',
      { start_datetime: '2024-01-01T12:00:00+02:00', end_datetime: '2024-01-01T10:30:00+01:00' },
      'end_datetime: must not be before start_datetime',
    ],
    [
      'a start without an end',
      { start_datetime: '2024-01-01T00:00:00Z' },
      'end_datetime: is required when start_datetime is given',
    ],
    [
      'an end without a start',
      { end_datetime: '2024-01-01T00:00:00Z' },
      'start_datetime: is required when end_datetime is given',
    ],
    [
      'datetime with a full range',
      {
        datetime: '2024-01-01T00:00:00Z',
        start_datetime: '2024-01-01T00:00:00Z',
        end_datetime: '2024-01-02T00:00:00Z',
      },
      'datetime: must not be given with start_datetime or end_datetime: give one or the other',
    ],
    [
      'datetime with a start only',
      { datetime: '2024-01-01T00:00:00Z', start_datetime: '2024-01-01T00:00:00Z' },
      'datetime: must not be given with start_datetime or end_datetime: give one or the other; ' +
        'end_datetime: is required when start_datetime is given',
    ],
  ])('rejects %s', (_name, body, message) => {
    expect(rejectionOf(itemMetadataSchema, body).message).toBe(message);
  });

  it('does not compare times that failed to parse', () => {
    expect(
      rejectionOf(itemMetadataSchema, { start_datetime: '2024-02-01T00:00:00Z', end_datetime: 'yesterday' })
        .message,
    ).toBe(`end_datetime: ${datetimeFormat}`);
  });
});

describe('checkItemMetadata on other bodies', () => {
  // A PATCH may send null to clear a time; null counts as not given.
  const patchBody = z
    .object({
      datetime: z.string().nullable().exactOptional(),
      start_datetime: z.string().nullable().exactOptional(),
      end_datetime: z.string().nullable().exactOptional(),
    })
    .superRefine(checkItemMetadata);

  it('lets a PATCH switch to an instant by clearing the range', () => {
    acceptanceOf(patchBody, { datetime: '2024-01-01T00:00:00Z', start_datetime: null, end_datetime: null });
  });

  it('still wants both ends of a range when one is cleared', () => {
    expect(
      rejectionOf(patchBody, { start_datetime: '2024-01-01T00:00:00Z', end_datetime: null }).message,
    ).toBe('end_datetime: is required when start_datetime is given');
  });

  it('reports beside another field once spread into a create body', () => {
    const createBody = strictObject({ title: titleSchema, ...itemMetadataShape }).superRefine(
      checkItemMetadata,
    );
    acceptanceOf(createBody, { title: 'Scene', datetime: '2024-01-01T00:00:00Z', tags: ['a'] });
    expect(
      rejectionOf(createBody, { title: 'x'.repeat(141), start_datetime: '2024-01-01T00:00:00Z' }).message,
    ).toBe('title: must be at most 140 characters; end_datetime: is required when start_datetime is given');
  });
});

describe('item metadata: tags', () => {
  const tagsOf = (tags: unknown) => ({ tags });

  it(`accepts ${MAX_TAGS} distinct tags, case-sensitive`, () => {
    const tags = Array.from({ length: MAX_TAGS - 1 }, (_, index) => `tag-${index}`).concat('TAG-0');
    expect(acceptanceOf(itemMetadataSchema, tagsOf(tags))).toEqual(tagsOf(tags));
  });

  it('accepts no tags', () => {
    acceptanceOf(itemMetadataSchema, tagsOf([]));
  });

  it.each<[string, unknown, string]>([
    [
      `${MAX_TAGS + 1} tags`,
      Array.from({ length: MAX_TAGS + 1 }, (_, index) => `tag-${index}`),
      `tags: must have at most ${MAX_TAGS} tags`,
    ],
    ['a repeated tag', ['a', 'b', 'a'], 'tags[2]: must not repeat tags[0]'],
    [
      'a tag repeated twice',
      ['a', 'a', 'b', 'a'],
      'tags[1]: must not repeat tags[0]; tags[3]: must not repeat tags[0]',
    ],
    ['a number', ['a', 7], 'tags[1]: must be a string'],
    ['a string for the array', 'a,b', 'tags: must be an array'],
    ['null', null, 'tags: must be an array'],
  ])('rejects %s', (_name, tags, message) => {
    expect(rejectionOf(itemMetadataSchema, tagsOf(tags)).message).toBe(message);
  });

  itEnforcesStringBounds(itemMetadataSchema, {
    path: 'tags[1]',
    max: TAG_MAX,
    bodyWith: (tag) => tagsOf(['first', tag]),
  });
});

describe('item metadata: properties', () => {
  /** `{"p":"…"}` is 8 bytes of JSON around the string. */
  const propertiesOfBytes = (bytes: number) => ({ p: 'x'.repeat(bytes - 8) });

  it('accepts any JSON object, kept as given', () => {
    const properties = { a: 1, b: [true, null, { c: 'd' }], 'proj:epsg': 2056, '': 'empty key' };
    expect(acceptanceOf(itemMetadataSchema, { properties })).toEqual({ properties });
  });

  it(`accepts exactly ${MAX_PROPERTIES_BYTES} bytes of JSON`, () => {
    const properties = propertiesOfBytes(MAX_PROPERTIES_BYTES);
    expect(JSON.stringify(properties)).toHaveLength(MAX_PROPERTIES_BYTES);
    acceptanceOf(itemMetadataSchema, { properties });
  });

  it(`rejects ${MAX_PROPERTIES_BYTES + 1} bytes of JSON`, () => {
    expect(
      rejectionOf(itemMetadataSchema, { properties: propertiesOfBytes(MAX_PROPERTIES_BYTES + 1) }).message,
    ).toBe(`properties: ${tooLarge}`);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 'é' is 2 bytes: under the bound in characters, over it in bytes.
    const properties = { p: 'é'.repeat(MAX_PROPERTIES_BYTES / 2) };
    expect(JSON.stringify(properties).length).toBeLessThan(MAX_PROPERTIES_BYTES);
    expect(rejectionOf(itemMetadataSchema, { properties }).message).toBe(`properties: ${tooLarge}`);
  });

  it.each<[string, unknown]>([
    ['an array', [1, 2]],
    ['null', null],
    ['a string', '{"a":1}'],
    ['a number', 42],
  ])('rejects %s', (_name, properties) => {
    expect(rejectionOf(itemMetadataSchema, { properties }).message).toBe('properties: must be a JSON object');
  });

  /** An object holding arrays inside arrays, `depth` levels in all (the object is level 1). */
  const nestedOf = (depth: number) => {
    let inner: unknown[] = [];
    for (let level = 2; level < depth; level++) inner = [inner];
    return { a: inner };
  };

  it(`accepts ${MAX_PROPERTIES_DEPTH} levels of nesting`, () => {
    acceptanceOf(itemMetadataSchema, { properties: nestedOf(MAX_PROPERTIES_DEPTH) });
  });

  it(`rejects ${MAX_PROPERTIES_DEPTH + 1} levels of nesting`, () => {
    expect(rejectionOf(itemMetadataSchema, { properties: nestedOf(MAX_PROPERTIES_DEPTH + 1) }).message).toBe(
      `properties: ${tooDeep}`,
    );
  });

  it('rejects 400,000 levels of brackets (as a 1 MiB body can hold) instead of overflowing the stack', () => {
    const properties: unknown = JSON.parse(`{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}`);
    expect(rejectionOf(itemMetadataSchema, { properties }).message).toBe(`properties: ${tooDeep}`);
  });

  it('rejects text PostgreSQL cannot store, naming where', () => {
    expect(rejectionOf(itemMetadataSchema, { properties: { notes: ['ok', 'a\u0000b'] } }).message).toBe(
      'properties.notes[1]: must not contain NUL characters or unpaired surrogates',
    );
  });
});
