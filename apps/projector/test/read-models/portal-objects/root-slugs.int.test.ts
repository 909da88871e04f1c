import { randomUUID } from 'node:crypto';
import { slugify, type RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import {
  catalogCreated,
  collectionCreated,
  metadata,
  moved,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';

/**
 * Root-level slugs are unique per organization: a root object of another organization, which the caller
 * may not be able to see, must never push a title to `-2` (that would tell the title exists there).
 */
const db = useReadSchemas('root-slugs');
const log = new RecordedEventLog();
const apply = (events: readonly Parameters<typeof streamOf>[0][]): Promise<void> =>
  db.apply(events.map((event): RecordedEvent => log.record(event, streamOf(event), metadata())));
const slugOf = async (id: string): Promise<string> => (await db.row(id)).slug;

/** A title no other test of the file uses, so each test has the root level to itself. */
const freshTitle = (words: string): string => `${words} ${randomUUID().slice(0, 8)}`;

describe('root-level slugs', () => {
  it('are unique per organization: two organizations both get the plain slug, one organization gets -2', async () => {
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const title = freshTitle('Acme Merger Plans');
    const alice = catalogCreated({ title, orgId: orgA, visibility: 'private' });
    const bob = catalogCreated({ title, orgId: orgB });
    const bobAgain = collectionCreated({ title, orgId: orgB });
    await apply([alice, bob, bobAgain]);

    expect(await slugOf(alice.data.id)).toBe(slugify(title));
    expect(await slugOf(bob.data.id)).toBe(slugify(title));
    expect(await slugOf(bobAgain.data.id)).toBe(`${slugify(title)}-2`);
  });

  it('keeps the plain slug on a rename into a title another organization holds, not one its own holds', async () => {
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const title = freshTitle('Quarterly Figures');
    const alice = catalogCreated({ title, orgId: orgA, visibility: 'private' });
    const bob = catalogCreated({ title: freshTitle('Draft'), orgId: orgB });
    const bobSecond = catalogCreated({ title: freshTitle('Other draft'), orgId: orgB });
    await apply([alice, bob, bobSecond]);

    const rename = (id: string, from: string) =>
      updated({ id, kind: 'catalog', changes: { title }, previous: { title: from } });
    await apply([rename(bob.data.id, bob.data.title)]);
    expect(await slugOf(bob.data.id)).toBe(slugify(title));

    await apply([rename(bobSecond.data.id, bobSecond.data.title)]);
    expect(await slugOf(bobSecond.data.id)).toBe(`${slugify(title)}-2`);
    expect(await slugOf(alice.data.id)).toBe(slugify(title));
  });

  it('scopes a move to the root level to the moved object’s organization', async () => {
    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const title = freshTitle('Harbour Survey');
    const alice = catalogCreated({ title, orgId: orgA });
    const bobParent = catalogCreated({ title: freshTitle('Projects'), orgId: orgB });
    const bobChild = catalogCreated({ title, orgId: orgB, parentId: bobParent.data.id });
    await apply([alice, bobParent, bobChild]);
    expect(await slugOf(bobChild.data.id)).toBe(slugify(title));

    const toRoot = moved({
      id: bobChild.data.id,
      kind: 'catalog',
      fromParentId: bobParent.data.id,
      toParentId: null,
    });
    await apply([toRoot]);
    expect(await db.row(bobChild.data.id)).toMatchObject({ parent_id: null, slug: slugify(title) });

    // A second object of B with the same title, moved up too, meets B's own: -2.
    const bobTwin = catalogCreated({ title, orgId: orgB, parentId: bobParent.data.id });
    await apply([bobTwin]);
    await apply([
      moved({ id: bobTwin.data.id, kind: 'catalog', fromParentId: bobParent.data.id, toParentId: null }),
    ]);
    expect(await slugOf(bobTwin.data.id)).toBe(`${slugify(title)}-2`);
  });

  it('keeps objects from before identity (no organization) unique among themselves', async () => {
    const title = freshTitle('Legacy Roads');
    const first = catalogCreated({ title });
    const second = catalogCreated({ title });
    const organized = catalogCreated({ title, orgId: randomUUID() });
    await apply([first, second, organized]);
    expect(await slugOf(first.data.id)).toBe(slugify(title));
    expect(await slugOf(second.data.id)).toBe(`${slugify(title)}-2`);
    expect(await slugOf(organized.data.id)).toBe(slugify(title));
  });

  it('keys slugs among live siblings per organization at the root level, and the key holds', async () => {
    // The file's second schema: the tests above left same-slug root objects of several organizations in
    // the first. (A schema keyed the old way, across organizations, is an older version: rebuilt at start.)
    const schema = db.replica;
    const result = await db.pool.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
        WHERE schemaname = $1 AND tablename = 'portal_objects' AND indexname LIKE '%slug%'`,
      [schema],
    );
    const indexes = new Map(result.rows.map((row) => [row.indexname, row.indexdef]));
    expect([...indexes.keys()].sort()).toEqual([
      'portal_objects_root_slug',
      'portal_objects_sibling_slug_in_org',
    ]);
    expect(indexes.get('portal_objects_sibling_slug_in_org')).toMatch(/COALESCE\(parent_id, org_id,/);

    // Two live root objects of one organization cannot share a slug.
    const orgId = randomUUID();
    const title = freshTitle('Unique Check');
    const original = catalogCreated({ title, orgId });
    const twin = catalogCreated({ title: freshTitle('Twin'), orgId });
    await db.apply(
      [original, twin].map((event) => log.record(event, streamOf(event), metadata())),
      schema,
    );
    await expect(
      db.pool.query(`UPDATE "${schema}".portal_objects SET slug = $2 WHERE id = $1`, [
        twin.data.id,
        slugify(title),
      ]),
    ).rejects.toThrow(/portal_objects_sibling_slug_in_org/);
  });
});
