import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { completionRequested, itemUploadStarted } from '../../test/support/item-events.js';
import {
  catalogCreated,
  collectionCreated,
  moved,
  RecordedEventLog,
  streamOf,
  updated,
} from '../../test/support/portal-events.js';
import { portalProjection } from '../portal-projection.js';
import { cutIntoSteps, type BatchStep } from './runs.js';
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
