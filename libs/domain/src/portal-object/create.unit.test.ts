import { describe, it } from 'vitest';
import type { CreateCatalog, CreateCollection, ParentLookup } from './commands.js';
import {
  aLink,
  catalogCreated,
  collectionCreated,
  createdByCreator,
  creator,
  given,
  liveParent,
  newId,
  testUserId,
} from './decider-test-kit.js';
import type { CollectionExtent } from './types.js';

function createCatalog(id: string, parent: ParentLookup | null): CreateCatalog {
  return {
    type: 'CreateCatalog',
    data: { id, title: 'Land cover', description: 'Maps', links: [], parent, access: creator },
  };
}

function createCollection(
  id: string,
  parent: ParentLookup | null,
  extra: Partial<CreateCollection['data']> = {},
): CreateCollection {
  return {
    type: 'CreateCollection',
    data: { id, title: 'Scenes', description: 'Level-2A', links: [], parent, access: creator, ...extra },
  };
}

describe('CreateCatalog', () => {
  it('creates a root-level catalog', () => {
    const id = newId();
    const links = [aLink('https://example.org/docs')];
    given()
      .when({
        type: 'CreateCatalog',
        data: { id, title: 'Land cover', description: 'Maps', links, parent: null, access: creator },
      })
      .then([
        {
          type: 'CatalogCreated',
          data: {
            id,
            title: 'Land cover',
            description: 'Maps',
            parentId: null,
            links,
            orgId: creator.orgId,
            visibility: 'org',
            createdBy: testUserId,
          },
        },
      ]);
  });

  it('creates a catalog inside a catalog', () => {
    const id = newId();
    const parent = liveParent('catalog', { depth: 3 });
    given()
      .when(createCatalog(id, parent))
      .then([catalogCreated({ id, title: 'Land cover', description: 'Maps', parentId: parent.id })]);
  });

  it('refuses a catalog inside a collection', () => {
    const parent = liveParent('collection');
    given()
      .when(createCatalog(newId(), parent))
      .thenFails(
        'INVALID_PARENT_KIND',
        new RegExp(`^parent ${parent.id}: a collection cannot contain a catalog$`),
      );
  });

  it('refuses a catalog inside an item', () => {
    given()
      .when(createCatalog(newId(), liveParent('item')))
      .thenFails('INVALID_PARENT_KIND', /an item cannot contain a catalog/);
  });

  it('refuses a missing parent', () => {
    const parentId = newId();
    given()
      .when(createCatalog(newId(), { found: false, id: parentId }))
      .thenFails('PARENT_NOT_FOUND', new RegExp(`parent ${parentId} does not exist`));
  });

  it('refuses a deleted parent (or one under a deleted ancestor)', () => {
    const parent = { ...liveParent('catalog'), deleted: true };
    given()
      .when(createCatalog(newId(), parent))
      .thenFails('PARENT_NOT_FOUND', /was deleted/);
  });

  it('accepts depth 32 and refuses depth 33', () => {
    const ok = newId();
    const deep = liveParent('catalog', { depth: 31 });
    given()
      .when(createCatalog(ok, deep))
      .then([catalogCreated({ id: ok, title: 'Land cover', description: 'Maps', parentId: deep.id })]);
    given()
      .when(createCatalog(newId(), liveParent('catalog', { depth: 32 })))
      .thenFails('DEPTH_EXCEEDED', /would sit at depth 33; the maximum depth is 32/);
  });

  it('refuses an id that already exists', () => {
    const id = newId();
    given(catalogCreated({ id }))
      .when(createCatalog(id, null))
      .thenFails('ALREADY_EXISTS', new RegExp(`catalog ${id} already exists`));
  });

  it('refuses the id of a deleted catalog: ids are never reused', () => {
    const id = newId();
    given(catalogCreated({ id }), {
      type: 'PortalObjectDeleted',
      data: { id, kind: 'catalog', recursive: false },
    })
      .when(createCatalog(id, null))
      .thenFails('ALREADY_EXISTS', /never reused/);
  });
});

describe('CreateCollection', () => {
  it('fills the defaults: license "other", no keywords, extent computed later', () => {
    const id = newId();
    given()
      .when(createCollection(id, null))
      .then([
        collectionCreated({
          id,
          title: 'Scenes',
          description: 'Level-2A',
          license: 'other',
          keywords: [],
          extent: null,
        }),
      ]);
  });

  it('keeps the license, keywords and extent it is given', () => {
    const id = newId();
    const parent = liveParent('catalog', { depth: 2 });
    const extent: CollectionExtent = {
      spatial: { bbox: [[5.9, 45.8, 10.5, 47.8]] },
      temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
    };
    given()
      .when(createCollection(id, parent, { license: 'CC-BY-4.0', keywords: ['sentinel', 'optical'], extent }))
      .then([
        collectionCreated({
          id,
          title: 'Scenes',
          description: 'Level-2A',
          parentId: parent.id,
          license: 'CC-BY-4.0',
          keywords: ['sentinel', 'optical'],
          extent,
        }),
      ]);
  });

  it('refuses a collection inside a collection', () => {
    const parent = liveParent('collection');
    given()
      .when(createCollection(newId(), parent))
      .thenFails(
        'INVALID_PARENT_KIND',
        new RegExp(`^parent ${parent.id}: a collection cannot contain a collection$`),
      );
  });

  it('refuses a missing or deleted parent', () => {
    given()
      .when(createCollection(newId(), { found: false, id: newId() }))
      .thenFails('PARENT_NOT_FOUND');
    given()
      .when(createCollection(newId(), { ...liveParent('catalog'), deleted: true }))
      .thenFails('PARENT_NOT_FOUND');
  });

  it('accepts depth 32 and refuses depth 33', () => {
    const ok = newId();
    const deep = liveParent('catalog', { depth: 31 });
    given()
      .when(createCollection(ok, deep))
      .then([collectionCreated({ id: ok, title: 'Scenes', description: 'Level-2A', parentId: deep.id })]);
    given()
      .when(createCollection(newId(), liveParent('catalog', { depth: 32 })))
      .thenFails('DEPTH_EXCEEDED', /depth 33/);
  });

  it('refuses an id that already exists', () => {
    const id = newId();
    given(collectionCreated({ id }))
      .when(createCollection(id, null))
      .thenFails('ALREADY_EXISTS', new RegExp(`collection ${id} already exists`));
  });
});

describe('the access a create records', () => {
  const otherOrgId = newId();

  it("gives a root-level object to the creator's organization, visible to it by default", () => {
    const id = newId();
    given()
      .when(createCatalog(id, null))
      .then([catalogCreated({ id, title: 'Land cover', description: 'Maps', ...createdByCreator })]);
  });

  it('keeps the visibility the creator gives', () => {
    const id = newId();
    given()
      .when({
        type: 'CreateCatalog',
        data: {
          id,
          title: 'Land cover',
          description: 'Maps',
          links: [],
          parent: null,
          access: { ...creator, visibility: 'private' },
        },
      })
      .then([catalogCreated({ id, title: 'Land cover', description: 'Maps', visibility: 'private' })]);
    given()
      .when(createCollection(id, null, { access: { ...creator, visibility: 'public' } }))
      .then([collectionCreated({ id, title: 'Scenes', description: 'Level-2A', visibility: 'public' })]);
  });

  it("gives an object below a parent to the parent's organization, whoever creates it", () => {
    const id = newId();
    const parent = liveParent('catalog', { orgId: otherOrgId });
    given()
      .when(createCollection(id, parent))
      .then([
        collectionCreated({
          id,
          title: 'Scenes',
          description: 'Level-2A',
          parentId: parent.id,
          orgId: otherOrgId,
          createdBy: testUserId,
        }),
      ]);
  });

  it('records no creator when none is known', () => {
    const id = newId();
    given()
      .when(createCollection(id, null, { access: { orgId: null, createdBy: null } }))
      .then([
        collectionCreated({ id, title: 'Scenes', description: 'Level-2A', orgId: null, createdBy: null }),
      ]);
  });
});
