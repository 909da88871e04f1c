import { randomUUID } from 'node:crypto';
import { MAX_SLUG_LENGTH, slugCandidate, slugify, type RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import {
  catalogCreated,
  collectionCreated,
  metadata,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';

/**
 * A rename takes its slug in one statement over the title's first candidates (rename-statement.ts); past
 * them, or when the current slug is a candidate beyond them, it must still give what `assignSlug` gives.
 */
const db = useReadSchemas('rename-slugs');
const log = new RecordedEventLog();
const apply = (events: readonly Parameters<typeof streamOf>[0][]): Promise<void> =>
  db.apply(events.map((event): RecordedEvent => log.record(event, streamOf(event), metadata())));
const slugOf = async (id: string): Promise<string> => (await db.row(id)).slug;

/** A parent and `count` collections below it with one title: slugs `base`, `base-2`, … `base-<count>`. */
async function crowd(title: string, count: number): Promise<string[]> {
  const parent = catalogCreated({ title: `Parent ${randomUUID()}` });
  const children = Array.from({ length: count }, () =>
    collectionCreated({ title, parentId: parent.data.id }),
  );
  await apply([parent, ...children]);
  return children.map((child) => child.data.id);
}

describe('a rename', () => {
  it('keeps a current slug that is a candidate of the new title past the first sixteen', async () => {
    const title = `Crowded ${randomUUID().slice(0, 8)}`;
    const ids = await crowd(title, 20);
    const last = ids[19] ?? '';
    expect(await slugOf(last)).toBe(slugCandidate(slugify(title), 20));

    // The plain slug is free again: still the current one is kept (a URL survives a rename).
    const first = ids[0] ?? '';
    await apply([
      updated({
        id: first,
        kind: 'collection',
        changes: { title: `Renamed ${randomUUID()}` },
        previous: { title },
      }),
    ]);
    await apply([
      updated({ id: last, kind: 'collection', changes: { title: `${title}.` }, previous: { title } }),
    ]);
    expect(await slugOf(last)).toBe(slugCandidate(slugify(title), 20));
  });

  it('takes the first free candidate past the first sixteen when they are all taken', async () => {
    const title = `Full ${randomUUID().slice(0, 8)}`;
    const ids = await crowd(title, 17);
    const parentId = (await db.row(ids[0] ?? '')).parent_id;
    const other = collectionCreated({ title: `Other ${randomUUID()}`, parentId });
    await apply([other]);

    await apply([updated({ id: other.data.id, kind: 'collection', changes: { title }, previous: {} })]);
    expect(await slugOf(other.data.id)).toBe(slugCandidate(slugify(title), 18));
  });

  it('keeps a current candidate of a long title, cut shorter to fit its number', async () => {
    const title = `${randomUUID().slice(0, 8)} ${'long '.repeat(MAX_SLUG_LENGTH / 5)}`;
    const ids = await crowd(title, 12);
    const tenth = ids[9] ?? '';
    const slug = slugCandidate(slugify(title), 10);
    expect(await slugOf(tenth)).toBe(slug);

    await apply([
      updated({ id: tenth, kind: 'collection', changes: { title: `${title}.` }, previous: { title } }),
    ]);
    expect(await slugOf(tenth)).toBe(slug);
  });
});
