import { randomUUID } from 'node:crypto';
import {
  adminPrincipal,
  editorPrincipal,
  memberPrincipal,
  memberUserPrincipal,
  PUBLIC,
  userPrincipal,
  type CreatedAccess,
  type PortalKind,
  type RecordedEvent,
  type SharePrincipal,
} from '@portal/domain';
import type { QueryConfig, QueryResult } from 'pg';
import { describe, expect, it } from 'vitest';
import { accessInconsistencies } from '../../support/access-consistency.js';
import { AccessModel } from '../../support/access-model.js';
import { dumpReadModel } from '../../support/dump.js';
import { itemUploadStarted } from '../../support/item-events.js';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  metadata,
  moved,
  RecordedEventLog,
  shared,
  streamOf,
  unshared,
  visibilityChanged,
} from '../../support/portal-events.js';
import { useReadSchemas } from '../../support/read-schemas.js';
import { PortalScenario } from '../../support/scenario.js';
import type { Sql } from '@portal/read-model-core';
import { portalObjectsReadModel } from '@portal/read-model-portal-objects';

const db = useReadSchemas('portal-access');
const log = new RecordedEventLog();

/** Every event a test applied, in order: what the TypeScript model folds. */
const history: RecordedEvent[] = [];

async function apply(...events: Parameters<typeof streamOf>[0][]): Promise<void> {
  const recorded = events.map((event) => log.record(event, streamOf(event), metadata()));
  history.push(...recorded);
  await db.apply(recorded);
}

/** Every row of the schema against `grantsOf` over its path, folded from every event applied so far. */
async function expectConsistent(schema = db.schema): Promise<void> {
  const model = new AccessModel().apply(history);
  expect(await accessInconsistencies(db.pool, schema, { model })).toEqual([]);
}

async function readPrincipals(id: string): Promise<string[]> {
  return (await db.row(id)).read_principals;
}

const sorted = (principals: readonly string[]): string[] => [...principals].sort();
const user = (id: string): SharePrincipal => ({ type: 'user', id });
const organization = (id: string): SharePrincipal => ({ type: 'organization', id });

/** A small organization: its id, a creator, and the access of objects they create with a visibility. */
function anOrganization(): {
  orgId: string;
  creator: string;
  access: (v: CreatedAccess['visibility']) => CreatedAccess;
} {
  const orgId = randomUUID();
  const creator = randomUUID();
  return { orgId, creator, access: (visibility) => ({ orgId, visibility, createdBy: creator }) };
}

describe('portal_objects: read principals', () => {
  it('derives a new object’s principals from its visibility, its creator and its parent’s path', async () => {
    const { orgId, creator, access } = anOrganization();
    const root = catalogCreated({ title: 'Access root', ...access('public') });
    const privateChild = catalogCreated({ title: 'Private', parentId: root.data.id, ...access('private') });
    const publicBelowPrivate = collectionCreated({
      title: 'Public below private',
      parentId: privateChild.data.id,
      ...access('public'),
    });
    const orgChild = collectionCreated({ title: 'Org', parentId: root.data.id, ...access('org') });
    const item = itemUploadStarted({ title: 'Scene', parentId: orgChild.data.id, ...access('public') });
    const legacy = catalogCreated({ title: 'Before identity' });
    await apply(root, privateChild, publicBelowPrivate, orgChild, item, legacy);

    const owner = memberUserPrincipal(orgId, creator);
    expect(await readPrincipals(root.data.id)).toEqual(
      sorted([adminPrincipal(orgId), memberPrincipal(orgId), owner, PUBLIC]),
    );
    // The narrowest visibility on the path wins: a public collection in a private catalog is private.
    expect(await readPrincipals(publicBelowPrivate.data.id)).toEqual(sorted([adminPrincipal(orgId), owner]));
    expect(await db.row(publicBelowPrivate.data.id)).toMatchObject({
      visibility: 'public',
      effective_visibility: 'private',
      org_id: orgId,
      created_by: creator,
    });
    expect(await readPrincipals(item.data.id)).toEqual(
      sorted([adminPrincipal(orgId), memberPrincipal(orgId), owner]),
    );
    // Objects from before identity belong to no organization: public, nothing else.
    expect(await readPrincipals(legacy.data.id)).toEqual([PUBLIC]);
    await expectConsistent();
  });

  it('passes shares down the whole subtree, replaces a share given again, and takes an unshared one back', async () => {
    const { orgId, creator, access } = anOrganization();
    const partnerOrg = randomUUID();
    const guest = randomUUID();
    const a = catalogCreated({ title: 'Share A', ...access('private') });
    const b = catalogCreated({ title: 'Share B', parentId: a.data.id, ...access('org') });
    const c = collectionCreated({ title: 'Share C', parentId: b.data.id, ...access('public') });
    const d = itemUploadStarted({ title: 'Share D', parentId: c.data.id, ...access('org') });
    const sibling = catalogCreated({ title: 'Share sibling', parentId: a.data.id, ...access('org') });
    await apply(a, b, c, d, sibling);

    const id = a.data.id;
    await apply(
      shared({ id, kind: 'catalog', principal: user(guest), permission: 'viewer', previous: null }),
      shared({
        id: b.data.id,
        kind: 'catalog',
        principal: organization(partnerOrg),
        permission: 'editor',
        previous: null,
      }),
    );
    const base = [adminPrincipal(orgId), memberUserPrincipal(orgId, creator)];
    expect(await readPrincipals(d.data.id)).toEqual(
      sorted([...base, userPrincipal(guest), memberPrincipal(partnerOrg)]),
    );
    expect(await db.row(d.data.id)).toMatchObject({
      shares: [],
      share_readers: sorted([memberPrincipal(partnerOrg), userPrincipal(guest)]),
      share_editors: [editorPrincipal(partnerOrg)],
    });
    // The partner's share is on B: A's other child sees only A's.
    expect(await readPrincipals(sibling.data.id)).toEqual(sorted([...base, userPrincipal(guest)]));

    await apply(
      shared({
        id,
        kind: 'catalog',
        principal: user(guest),
        permission: 'editor',
        previous: { principal: user(guest), permission: 'viewer' },
      }),
    );
    expect(await db.row(id)).toMatchObject({
      shares: [{ principal: user(guest), permission: 'editor' }],
    });
    expect(await db.row(c.data.id)).toMatchObject({
      share_editors: sorted([editorPrincipal(partnerOrg), userPrincipal(guest)]),
    });

    await apply(unshared({ id, kind: 'catalog', principal: user(guest), permission: 'editor' }));
    expect(await readPrincipals(d.data.id)).toEqual(sorted([...base, memberPrincipal(partnerOrg)]));
    expect(await readPrincipals(sibling.data.id)).toEqual(base);
    await expectConsistent();
  });

  it('narrows and widens a whole subtree on a visibility change, each descendant keeping its own', async () => {
    const { orgId, creator, access } = anOrganization();
    const top = catalogCreated({ title: 'Visibility top', ...access('public') });
    const middle = catalogCreated({ title: 'Visibility middle', parentId: top.data.id, ...access('public') });
    const own = collectionCreated({ title: 'Own org', parentId: middle.data.id, ...access('org') });
    const leaf = itemUploadStarted({ title: 'Leaf', parentId: own.data.id, ...access('public') });
    const open = itemUploadStarted({ title: 'Open', parentId: middle.data.id, ...access('public') });
    await apply(top, middle, own, leaf, open);
    expect(await readPrincipals(open.data.id)).toContain(PUBLIC);

    await apply(visibilityChanged({ id: top.data.id, kind: 'catalog', from: 'public', to: 'private' }));
    for (const object of [middle, own, leaf, open]) {
      expect(await readPrincipals(object.data.id)).toEqual(
        sorted([adminPrincipal(orgId), memberUserPrincipal(orgId, creator)]),
      );
    }
    await expectConsistent();

    await apply(visibilityChanged({ id: top.data.id, kind: 'catalog', from: 'private', to: 'public' }));
    expect(await readPrincipals(open.data.id)).toContain(PUBLIC);
    // Its own `org` still holds below the collection.
    expect(await db.row(leaf.data.id)).toMatchObject({ visibility: 'public', effective_visibility: 'org' });
    expect(await readPrincipals(leaf.data.id)).not.toContain(PUBLIC);
    await expectConsistent();
  });

  it('gives a moved subtree the access of its new path, shares of the old ancestors left behind', async () => {
    const { orgId, access } = anOrganization();
    const guest = randomUUID();
    const from = catalogCreated({ title: 'Move from', ...access('org') });
    const to = catalogCreated({ title: 'Move to', ...access('public') });
    const moving = catalogCreated({ title: 'Moving', parentId: from.data.id, ...access('public') });
    const below = collectionCreated({ title: 'Moving below', parentId: moving.data.id, ...access('public') });
    const deepest = itemUploadStarted({ title: 'Deepest', parentId: below.data.id, ...access('public') });
    await apply(from, to, moving, below, deepest);
    await apply(
      shared({
        id: from.data.id,
        kind: 'catalog',
        principal: user(guest),
        permission: 'viewer',
        previous: null,
      }),
      shared({
        id: moving.data.id,
        kind: 'catalog',
        principal: organization(orgId),
        permission: 'editor',
        previous: null,
      }),
    );
    expect(await readPrincipals(deepest.data.id)).toContain(userPrincipal(guest));
    expect(await readPrincipals(deepest.data.id)).not.toContain(PUBLIC);

    await apply(
      moved({ id: moving.data.id, kind: 'catalog', fromParentId: from.data.id, toParentId: to.data.id }),
    );
    const after = await readPrincipals(deepest.data.id);
    expect(after).toContain(PUBLIC);
    expect(after).not.toContain(userPrincipal(guest));
    expect(await db.row(deepest.data.id)).toMatchObject({ share_editors: [editorPrincipal(orgId)] });

    // And to the root level: no inherited visibility or shares but its own.
    await apply(
      moved({ id: below.data.id, kind: 'collection', fromParentId: moving.data.id, toParentId: null }),
    );
    expect(await db.row(deepest.data.id)).toMatchObject({
      share_readers: [],
      effective_visibility: 'public',
    });
    await expectConsistent();
  });

  it('keeps tombstones right too, so any order of events projects the same', async () => {
    const { access } = anOrganization();
    const top = catalogCreated({ title: 'Buried top', ...access('public') });
    const child = collectionCreated({ title: 'Buried child', parentId: top.data.id, ...access('public') });
    await apply(top, child, deleted({ id: top.data.id, kind: 'catalog', recursive: true }));
    // A change raced with the delete: the command side accepted it before the delete was recorded.
    await apply(visibilityChanged({ id: top.data.id, kind: 'catalog', from: 'public', to: 'private' }));
    expect(await db.row(child.data.id)).toMatchObject({ effective_visibility: 'private' });
    await expectConsistent();
  });

  it('fails loudly on an access event for an object it never saw', async () => {
    const ghost = visibilityChanged({ id: randomUUID(), kind: 'catalog', from: 'org', to: 'public' });
    await expect(db.apply([log.record(ghost, streamOf(ghost))])).rejects.toThrow(
      /catalog .* is not in the read model/,
    );
  });

  it('recomputes a subtree in a fixed number of statements, whatever its size', async () => {
    const { access } = anOrganization();
    const small = catalogCreated({ title: 'Small', ...access('org') });
    const wide = catalogCreated({ title: 'Wide', ...access('org') });
    const children = Array.from({ length: 200 }, (_, i) =>
      collectionCreated({ title: `Wide ${i}`, parentId: wide.data.id, ...access('public') }),
    );
    const grandchildren = children.map((child) =>
      itemUploadStarted({ title: 'Scene', parentId: child.data.id, ...access('public') }),
    );
    await apply(small, wide, ...children, ...grandchildren);

    const onBoth = (kind: PortalKind, change: (id: string) => Parameters<typeof streamOf>[0]) =>
      [small, wide].map((object) => log.record(change(object.data.id), `${kind}-${object.data.id}`));
    const events = [
      ...onBoth('catalog', (id) => visibilityChanged({ id, kind: 'catalog', from: 'org', to: 'private' })),
      ...onBoth('catalog', (id) =>
        shared({ id, kind: 'catalog', principal: user(randomUUID()), permission: 'editor', previous: null }),
      ),
    ];
    history.push(...events);
    const counts = await statementsPerEvent(events);
    expect(counts[0]).toBe(counts[1]);
    expect(counts[2]).toBe(counts[3]);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    await expectConsistent();
  });
});

describe('portal_objects: read principals over a random history', () => {
  // Schemas of its own: the model knows this history's objects only.
  const random = useReadSchemas('portal-access-history');
  const scenario = new PortalScenario(20261121, { items: true, access: true });
  const scenarioLog = new RecordedEventLog();
  const events = Array.from({ length: 1500 }, () => {
    const planned = scenario.plan();
    return scenarioLog.record(planned.event, planned.streamId, planned.event.metadata);
  });
  const model = new AccessModel();

  it('equals grantsOf over each path after every batch of creates, shares, unshares, visibility changes and moves', async () => {
    for (let start = 0; start < events.length; start += 100) {
      const batch = events.slice(start, start + 100);
      await random.apply(batch);
      model.apply(batch);
      expect(await accessInconsistencies(random.pool, random.schema, { model })).toEqual([]);
    }
    const kinds = new Set(events.map((event) => event.type));
    for (const type of ['VisibilityChanged', 'ObjectShared', 'ObjectUnshared', 'PortalObjectMoved']) {
      expect(kinds).toContain(type);
    }
    // The history reached what inheritance tells apart: deep rows, private and shared subtrees.
    const stats = await random.pool.query<{ deep: string; narrowed: string; inherited: string }>(
      `SELECT count(*) FILTER (WHERE depth >= 4) AS deep,
              count(*) FILTER (WHERE effective_visibility <> visibility) AS narrowed,
              count(*) FILTER (WHERE share_readers <> '{}' AND shares = '[]') AS inherited
         FROM "${random.schema}".portal_objects`,
    );
    const counts = stats.rows[0];
    expect(Number(counts?.deep)).toBeGreaterThan(0);
    expect(Number(counts?.narrowed)).toBeGreaterThan(0);
    expect(Number(counts?.inherited)).toBeGreaterThan(0);
  });

  it('changes nothing when the events are applied again, and a replay into a fresh schema builds the same rows', async () => {
    const once = await dumpReadModel(random.pool, random.schema);
    await random.apply(events);
    await random.apply(events.slice(300, 900));
    expect(await dumpReadModel(random.pool, random.schema)).toEqual(once);

    for (let start = 0; start < events.length; start += 250) {
      await random.apply(events.slice(start, start + 250), random.replica);
    }
    expect(await dumpReadModel(random.pool, random.replica)).toEqual(once);
    expect(await accessInconsistencies(random.pool, random.replica, { model })).toEqual([]);
  });
});

/** How many statements the read model sends for each event, applied one by one in one transaction. */
async function statementsPerEvent(events: readonly RecordedEvent[]): Promise<number[]> {
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL search_path TO "${db.schema}", public`);
    const counts: number[] = [];
    for (const event of events) {
      let count = 0;
      const query = (config: string | QueryConfig, values?: unknown[]): Promise<QueryResult> => {
        count += 1;
        return client.query(config, values);
      };
      await portalObjectsReadModel.apply({ query } as Sql, event, { log: db.logger });
      counts.push(count);
    }
    await client.query('COMMIT');
    return counts;
  } finally {
    client.release();
  }
}
