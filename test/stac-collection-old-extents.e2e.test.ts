import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { createPortalObject } from './support/stac-fixture.js';
import { expectShape, specCollection, specCollections } from './support/stac-schemas.js';

/**
 * Collections whose extent was stored before the contract bounded its times: year 0, a fraction that
 * rounds into year 10000. No request can write such an extent any more, so the test writes it into the
 * read model as the projector had (from the events old code accepted). Every list, search, sort and
 * filter reading them must answer valid STAC, the bad times as open ends (null), and never fail.
 * Each request carries `q=<a word of this run>`, so the stack's other collections never enter the answer.
 */

useSignedInCaller();

const TAG = `zo${randomBytes(5).toString('hex')}`;
let pool: pg.Pool;
let yearZero = '';
let yearTenThousand = '';
let valid = '';

const extent = (interval: [string, string | null][]) => ({
  spatial: { bbox: [[0, 0, 10, 10]] },
  temporal: { interval },
});

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
  const placeholder = extent([['2020-01-01T00:00:00Z', null]]);
  yearZero = await createPortalObject('collections', {
    title: 'Year zero',
    keywords: [TAG],
    extent: placeholder,
  });
  yearTenThousand = await createPortalObject('collections', {
    title: 'Year ten thousand',
    keywords: [TAG],
    extent: placeholder,
  });
  valid = await createPortalObject('collections', {
    title: 'Valid',
    keywords: [TAG],
    extent: extent([['2021-06-01T00:00:00Z', '2021-12-31T00:00:00Z']]),
  });
  const store = (id: string, value: unknown) =>
    pool.query(`UPDATE read.portal_objects SET extent = $2::jsonb WHERE id = $1`, [
      id,
      JSON.stringify(value),
    ]);
  await store(
    yearZero,
    extent([
      ['0000-01-01T00:00:00Z', '2020-01-01T00:00:00Z'],
      ['0000-06-01T00:00:00Z', null],
    ]),
  );
  await store(yearTenThousand, extent([['2019-01-01T00:00:00Z', '9999-12-31T23:59:59.9999999Z']]));
}, 60_000);

afterAll(async () => {
  await pool.end();
});

interface Listed {
  collections: { id: string; extent: { temporal: { interval: (string | null)[][] } } }[];
}

async function search(parameters: Record<string, string>): Promise<string[]> {
  const query = new URLSearchParams({ q: TAG, limit: '100', ...parameters });
  const answer = await call<Listed>('GET', `/api/v1/stac/collections?${query.toString()}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expectShape(specCollections, answer.body);
  return answer.body.collections.map((collection) => collection.id);
}

describe('collections with extents stored by old code', () => {
  it('answer valid STAC, the times no timestamp can hold as open ends', async () => {
    const query = new URLSearchParams({ q: TAG, limit: '100' });
    const answer = await call<Listed>('GET', `/api/v1/stac/collections?${query.toString()}`);
    expect(answer.status).toBe(200);
    expectShape(specCollections, answer.body);
    const intervals = new Map(answer.body.collections.map((c) => [c.id, c.extent.temporal.interval]));
    expect(intervals.get(yearZero)).toEqual([
      [null, '2020-01-01T00:00:00Z'],
      [null, null],
    ]);
    expect(intervals.get(yearTenThousand)).toEqual([['2019-01-01T00:00:00Z', null]]);
    expect(intervals.get(valid)).toEqual([['2021-06-01T00:00:00Z', '2021-12-31T00:00:00Z']]);
    const one = await call('GET', `/api/v1/stac/collections/${yearZero}`);
    expect(one.status).toBe(200);
    expectShape(specCollection, one.body);
  });

  it('datetime reads an open end as unbounded', async () => {
    expect((await search({ datetime: '1900-01-01T00:00:00Z/1901-01-01T00:00:00Z' })).sort()).toEqual(
      [yearZero].sort(),
    );
    expect((await search({ datetime: '2030-01-01T00:00:00Z/..' })).sort()).toEqual(
      [yearZero, yearTenThousand].sort(),
    );
    expect((await search({ datetime: '2021-07-01T00:00:00Z' })).sort()).toEqual(
      [yearZero, yearTenThousand, valid].sort(),
    );
  });

  it('sortby the extent times pages through all of them, an open start as NULL', async () => {
    for (const sortby of ['+datetime', '-datetime', '+end_datetime', '-start_datetime,+title']) {
      const seen: string[] = [];
      let path: string | null =
        `/api/v1/stac/collections?${new URLSearchParams({ q: TAG, limit: '1', sortby }).toString()}`;
      while (path !== null) {
        const page: { status: number; body: Listed & { links: { rel: string; href: string }[] } } =
          await call('GET', path);
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        seen.push(...page.body.collections.map((collection) => collection.id));
        const next = page.body.links.find((link) => link.rel === 'next');
        path = next === undefined ? null : `${new URL(next.href).pathname}${new URL(next.href).search}`;
      }
      expect(seen.sort(), sortby).toEqual([yearZero, yearTenThousand, valid].sort());
    }
    // Ascending, NULL (an open start) comes last, as PostgreSQL orders it.
    expect(await search({ sortby: '+datetime' })).toEqual([yearTenThousand, valid, yearZero]);
  });

  it('filters on the extent times read an open end as NULL, or unbounded for the T_ functions', async () => {
    expect(await search({ filter: "start_datetime < TIMESTAMP('2020-01-01T00:00:00Z')" })).toEqual([
      yearTenThousand,
    ]);
    expect((await search({ filter: 'end_datetime IS NULL' })).sort()).toEqual([yearTenThousand].sort());
    expect(
      (
        await search({
          filter: "T_INTERSECTS(datetime, INTERVAL('1000-01-01T00:00:00Z', '1001-01-01T00:00:00Z'))",
        })
      ).sort(),
    ).toEqual([yearZero]);
    expect(await search({ query: JSON.stringify({ datetime: { gte: '2019-01-01T00:00:00Z' } }) })).toEqual(
      expect.arrayContaining([yearTenThousand, valid]),
    );
  });
});
