import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { completionRequested, itemUploadStarted } from '../../test/support/item-events.js';
import { followPlacements, type Placement } from '@portal/read-model-portal-objects';
import {
  catalogCreated,
  collectionCreated,
  deleted,
  moved,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../test/support/portal-events.js';
import { portalProjection } from '../portal-projection.js';
import { cutIntoSteps, type BatchStep, type FootprintsOf } from './runs.js';
import { SlugFamilies } from './slug-families.js';

const log = new RecordedEventLog();
type Recordable = Parameters<typeof streamOf>[0];
const record = (event: Recordable): RecordedEvent => log.record(event, streamOf(event));

/** Each step as the titles (or types) of its events: runs as arrays, lone events as strings. */
function shape(steps: readonly BatchStep[]): (string | string[])[] {
  const name = (event: RecordedEvent): string => (event.data as { title?: string }).title ?? event.type;
  return steps.map((step) => (step.kind === 'run' ? step.events.map(name) : name(step.event)));
}

describe('cutIntoSteps', () => {
  it('keeps creates in one run, below parents of the table and below parents created in the run', () => {
    const root = record(catalogCreated({ title: 'Root' }));
    const parentId = root.data as { id: string };
    const events = [
      record(collectionCreated({ title: 'One', parentId: parentId.id })),
      record(collectionCreated({ title: 'Two', parentId: parentId.id })),
      record(catalogCreated({ title: 'Three' })),
    ];
    const three = events[2]?.data as { id: string };
    const child = record(collectionCreated({ title: 'Four', parentId: three.id }));
    expect(shape(cutIntoSteps(portalProjection, [...events, child]))).toEqual([
      ['One', 'Two', 'Three', 'Four'],
    ]);
  });

  it('puts moves and renames alone, and cuts before an event on an object the run changed', () => {
    const catalog = catalogCreated({ title: 'Cat' });
    const item = itemUploadStarted({ title: 'Item', parentId: randomUUID() });
    const { id } = catalog.data;
    const steps = cutIntoSteps(portalProjection, [
      record(catalog),
      record(updated({ id, kind: 'catalog', changes: { description: 'd' }, previous: { description: '' } })),
      record(item),
      record(completionRequested(item)),
      record(updated({ id, kind: 'catalog', changes: { title: 'Renamed' }, previous: { title: 'Cat' } })),
      record(moved({ id, kind: 'catalog', fromParentId: null, toParentId: randomUUID() })),
    ]);
    expect(shape(steps)).toEqual([
      ['Cat'],
      ['PortalObjectUpdated', 'Item'],
      ['UploadCompletionRequested'],
      'PortalObjectUpdated',
      'PortalObjectMoved',
    ]);
  });

  it('cuts before a slug of the same family among the same siblings, not among others', () => {
    const parentId = randomUUID();
    const steps = cutIntoSteps(
      portalProjection,
      ['Alpha', 'Beta', 'alpha 2', 'Gamma', 'ALPHA!'].map((title) =>
        record(collectionCreated({ title, parentId })),
      ),
    );
    expect(shape(steps)).toEqual([['Alpha', 'Beta'], ['alpha 2', 'Gamma'], ['ALPHA!']]);
    const elsewhere = cutIntoSteps(portalProjection, [
      record(collectionCreated({ title: 'Alpha', parentId })),
      record(collectionCreated({ title: 'Alpha', parentId: randomUUID() })),
    ]);
    expect(elsewhere).toHaveLength(1);
  });
});

/** The portal objects' batch footprints over placements read beforehand (the other read models add none). */
function placed(placements: Record<string, Placement>): FootprintsOf {
  const footprintOf = followPlacements(new Map(Object.entries(placements)));
  return (event) => {
    const footprint = footprintOf(event);
    return footprint === null ? null : [footprint];
  };
}

describe('cutIntoSteps with the batch footprints', () => {
  const parentId = randomUUID();
  const otherParentId = randomUUID();
  const objectId = randomUUID();
  const bare: Placement = { parentId, orgId: null, slugs: ['alpha', 'alpha'], bare: true };
  const rename = (title: string): RecordedEvent =>
    record(updated({ id: objectId, kind: 'collection', changes: { title }, previous: { title: 'Alpha' } }));
  const move = (id: string, toParentId: string): RecordedEvent =>
    record(moved({ id, kind: 'collection', fromParentId: parentId, toParentId }));

  it('lets a rename join a run, and cuts before a slug of the family it freed or took', () => {
    const steps = cutIntoSteps(
      portalProjection,
      [
        record(collectionCreated({ title: 'One', parentId })),
        rename('Beta'),
        record(collectionCreated({ title: 'Two', parentId })),
        record(collectionCreated({ title: 'Alpha', parentId })),
        record(collectionCreated({ title: 'Beta', parentId })),
      ],
      placed({ [objectId]: bare }),
    );
    expect(shape(steps)).toEqual([
      ['One', 'PortalObjectUpdated', 'Two'],
      ['Alpha', 'Beta'],
    ]);
    const taken = cutIntoSteps(
      portalProjection,
      [rename('Beta'), record(collectionCreated({ title: 'Beta 2', parentId }))],
      placed({ [objectId]: bare }),
    );
    expect(shape(taken)).toEqual([['PortalObjectUpdated'], ['Beta 2']]);
  });

  it('lets a move of an object with nothing below it join a run, not one below which the batch creates', () => {
    const steps = cutIntoSteps(
      portalProjection,
      [
        record(collectionCreated({ title: 'One', parentId: otherParentId })),
        move(objectId, otherParentId),
        record(collectionCreated({ title: 'Below', parentId: objectId })),
        move(objectId, parentId),
      ],
      placed({ [objectId]: bare }),
    );
    // The create below the moved object reads its new place; after it, the object is no longer bare.
    expect(shape(steps)).toEqual([['One', 'PortalObjectMoved'], ['Below'], 'PortalObjectMoved']);
  });

  it('cuts a run before a move into an object the run created, or out of one it updated', () => {
    const created = collectionCreated({ title: 'New', parentId });
    const steps = cutIntoSteps(
      portalProjection,
      [
        record(created),
        move(objectId, created.data.id),
        record(updated({ id: parentId, kind: 'catalog', changes: { description: 'd' }, previous: {} })),
      ],
      placed({ [objectId]: bare }),
    );
    expect(shape(steps)).toEqual([['New'], ['PortalObjectMoved'], ['PortalObjectUpdated']]);
  });

  it('puts alone a move or delete of an object with rows below it, or of one the batch did not read', () => {
    const covered: Placement = { ...bare, bare: false };
    const unknownId = randomUUID();
    const steps = cutIntoSteps(
      portalProjection,
      [
        move(objectId, otherParentId),
        record(deleted({ id: objectId, kind: 'collection', recursive: true })),
        record(deleted({ id: unknownId, kind: 'collection', recursive: false })),
        record(collectionCreated({ title: 'One', parentId })),
      ],
      placed({ [objectId]: covered }),
    );
    expect(shape(steps)).toEqual([
      'PortalObjectMoved',
      'PortalObjectDeleted',
      'PortalObjectDeleted',
      ['One'],
    ]);
  });

  it('lets a delete of a bare object join a run; a create of its slug family among its siblings cuts', () => {
    const steps = cutIntoSteps(
      portalProjection,
      [
        record(deleted({ id: objectId, kind: 'collection', recursive: false })),
        record(collectionCreated({ title: 'Alpha', parentId: otherParentId })),
        record(collectionCreated({ title: 'Alpha', parentId })),
      ],
      placed({ [objectId]: bare }),
    );
    expect(shape(steps)).toEqual([['PortalObjectDeleted', 'Alpha'], ['Alpha']]);
  });
});

describe('SlugFamilies', () => {
  it('finds a base among the candidates of another, either way, also when a candidate cuts a long base short', () => {
    const families = new SlugFamilies();
    families.add('alpha');
    expect(families.clashes('alpha')).toBe(true);
    expect(families.clashes('alpha-7')).toBe(true);
    expect(families.clashes('alpha-1')).toBe(false);
    expect(families.clashes('alphabet')).toBe(false);
    families.add('beta-3');
    expect(families.clashes('beta')).toBe(true);
    const long = `${'word-'.repeat(15)}end`;
    families.add(long);
    // The candidate `-12` of the long base cuts it to fit 80 characters.
    const cut = `${long.slice(0, 77).replace(/-+$/, '')}-12`;
    expect(families.clashes(cut)).toBe(true);
  });
});
