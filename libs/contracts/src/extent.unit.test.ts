import { describe, expect, it } from 'vitest';
import { createCollectionBodySchema } from './collections.js';
import { bboxSchema, collectionExtentSchema, MAX_EXTENT_ENTRIES, temporalIntervalSchema } from './extent.js';
import { validCollectionBody, validExtent } from './test-support/fixtures.js';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';

describe('bbox', () => {
  it.each([
    [[-180, -90, 180, 90]],
    [[0, 0, 0, 0]],
    [[170, -10, -170, 10]], // crosses the antimeridian
  ])('accepts %j', (bbox) => {
    expect(acceptanceOf(bboxSchema, bbox)).toEqual(bbox);
  });

  it.each([
    [[-180.5, 0, 10, 10], '[0]: must be a longitude from -180 to 180'],
    [[0, 0, 180.1, 10], '[2]: must be a longitude from -180 to 180'],
    [[0, -91, 10, 10], '[1]: must be a latitude from -90 to 90'],
    [[0, 0, 10, 90.5], '[3]: must be a latitude from -90 to 90'],
    [[0, 20, 10, 10], 'south (20) must not be greater than north (10)'],
    [[0, 0, 10], 'must be 4 numbers: west, south, east, north'],
    [[0, 0, 10, 10, 0, 5], 'must be 4 numbers: west, south, east, north'],
    [[0, '0', 10, 10], '[1]: must be a number'],
    [{ west: 0 }, 'must be 4 numbers: west, south, east, north'],
  ])('rejects %j: %s', (bbox, message) => {
    expect(rejectionOf(bboxSchema, bbox).message).toBe(message);
  });

  it('names the failing box inside a collection body', () => {
    const extent = {
      ...validExtent(),
      spatial: {
        bbox: [
          [0, 0, 10, 10],
          [0, 50, 10, 40],
        ],
      },
    };
    expect(rejectionOf(createCollectionBodySchema, { ...validCollectionBody(), extent }).message).toBe(
      'extent.spatial.bbox[1]: south (50) must not be greater than north (40)',
    );
  });
});

describe('temporal interval', () => {
  it.each([
    [['2020-01-01T00:00:00Z', null]],
    [['2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z']],
    [['2020-01-01T00:00:00.5Z', '2021-06-30T23:59:59.999Z']],
    // The ends of what PostgreSQL's timestamptz reads as the same instant.
    [['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z']],
    [['2020-01-01T00:00:00Z', '9999-12-31T23:59:59.99999949Z']],
  ])('accepts %j', (interval) => {
    expect(acceptanceOf(temporalIntervalSchema, interval)).toEqual(interval);
  });

  it.each([
    [['2021-01-01T00:00:00Z', '2020-01-01T00:00:00Z'], 'start must not be after end'],
    [['2020-01-01T00:00:00.5Z', '2020-01-01T00:00:00Z'], 'start must not be after end'],
    [['2020-01-01', null], '[0]: must be an RFC 3339 timestamp in UTC, e.g. 2024-01-31T12:00:00Z'],
    [
      ['2020-01-01T00:00:00+02:00', null],
      '[0]: must be an RFC 3339 timestamp in UTC, e.g. 2024-01-31T12:00:00Z',
    ],
    [['2020-02-30T00:00:00Z', null], '[0]: must be an RFC 3339 timestamp in UTC, e.g. 2024-01-31T12:00:00Z'],
    [[null, '2020-01-01T00:00:00Z'], '[0]: must be an RFC 3339 timestamp in UTC, e.g. 2024-01-31T12:00:00Z'],
    [['2020-01-01T00:00:00Z'], 'must be a pair [start, end or null]'],
    // PostgreSQL cannot cast year 0, and rounds this fraction into year 10000: the collection search's
    // casts of the stored extent would fail on it.
    [['0000-01-01T00:00:00Z', null], '[0]: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z'],
    [
      ['2020-01-01T00:00:00Z', '9999-12-31T23:59:59.9999995Z'],
      '[1]: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z',
    ],
  ])('rejects %j: %s', (interval, message) => {
    expect(rejectionOf(temporalIntervalSchema, interval).message).toBe(message);
  });
});

describe('collection extent', () => {
  it('accepts several boxes and intervals', () => {
    const extent = {
      spatial: {
        bbox: [
          [-10, 35, 30, 60],
          [100, -10, 120, 5],
        ],
      },
      temporal: {
        interval: [
          ['2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'],
          ['2022-01-01T00:00:00Z', null],
        ],
      },
    };
    expect(acceptanceOf(collectionExtentSchema, extent)).toEqual(extent);
  });

  it('needs at least one box and one interval', () => {
    expect(
      rejectionOf(collectionExtentSchema, { spatial: { bbox: [] }, temporal: { interval: [] } }).message,
    ).toBe(
      'spatial.bbox: must have at least 1 bounding box; temporal.interval: must have at least 1 interval',
    );
  });

  it(`accepts ${MAX_EXTENT_ENTRIES} boxes and rejects ${MAX_EXTENT_ENTRIES + 1}`, () => {
    const withBoxes = (count: number) => ({
      ...validExtent(),
      spatial: { bbox: Array.from({ length: count }, () => [0, 0, 1, 1]) },
    });
    acceptanceOf(collectionExtentSchema, withBoxes(MAX_EXTENT_ENTRIES));
    expect(rejectionOf(collectionExtentSchema, withBoxes(MAX_EXTENT_ENTRIES + 1)).message).toBe(
      `spatial.bbox: must have at most ${MAX_EXTENT_ENTRIES} bounding boxes`,
    );
  });

  it('rejects unknown fields at every level', () => {
    const extent = { ...validExtent(), vertical: {}, spatial: { bbox: [[0, 0, 1, 1]], crs: 'EPSG:4326' } };
    expect(rejectionOf(collectionExtentSchema, extent).details).toEqual([
      { path: 'spatial.crs', message: 'is not an allowed field' },
      { path: 'vertical', message: 'is not an allowed field' },
    ]);
  });
});
