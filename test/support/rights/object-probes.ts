import { randomUUID } from 'node:crypto';
import type { JsonResponse } from '../http.js';
import { call, commandCell, found, hiddenFrom, lookup, readCell, type Observed } from './answers.js';
import { freshOperations, objectKey } from './case-objects.js';
import { situationModel, situationNames } from './expectations.js';
import type { RightsFixture } from './fixture.js';
import { actingOf } from './model.js';
import type { Made } from './objects.js';
import type { ObjectCase } from './rights-table.js';
import { relations, situations, type Visibility } from './vocabulary.js';

/**
 * The request of one case, as its caller, and what the answer says in the table's words, with what the
 * test checks it does not leak: the secrets (see objects.ts) of every object of the case that the
 * model says the caller may not read.
 */
export interface Observation {
  readonly cell: Observed;
  /** The answer's body as text ('' for the feed, which is no single answer). */
  readonly text: string;
  /** Secrets the answer must not carry. */
  readonly hidden: readonly string[];
  /** The secret an allowed read must carry (it answers the object itself). */
  readonly shown: string | null;
}

/** A visibility other than the object's own, so the change is a real one. */
const otherVisibility: Readonly<Record<Visibility, Visibility>> = {
  private: 'org',
  org: 'private',
  public: 'org',
};

/** The request of an operation of "Rights on one object", on `subject` (X, or a fresh twin of it). */
async function request(
  fixture: RightsFixture,
  cell: ObjectCase,
  headers: Record<string, string>,
  objects: { parent: Made; twin: Made; subject: Made; path: string; unknownPath: string },
): Promise<{ cell: Observed; text: string }> {
  const as = { headers, as: 'anonymous' as const };
  const { parent, twin, subject, path, unknownPath } = objects;
  const item = `/api/v1/portal/items/${subject.id}`;
  const seen = (answer: JsonResponse, cellOf: (answer: JsonResponse) => Observed) => ({
    cell: cellOf(answer),
    text: JSON.stringify(answer.body),
  });
  const command = (success: number) => (answer: JsonResponse) => commandCell(answer, success);
  switch (cell.operation) {
    case 'read':
      return seen(await call('GET', item, as), readCell);
    case 'breadcrumbs':
      return seen(await call('GET', `/api/v1/browser/nodes/${subject.id}/breadcrumbs`, as), readCell);
    case 'history':
      return seen(await call('GET', `${item}/history`, as), readCell);
    case 'as of':
      return seen(await call('GET', `${item}?asOf=0`, as), readCell);
    case 'search': {
      // The secret is in X's title and description only: a hidden X is neither listed nor counted.
      const answer = await call<{ items?: { id: string }[]; totals?: { objects?: number } }>(
        'GET',
        `/api/v1/portal/inventory/?q=${subject.secret}`,
        as,
      );
      const ids = (answer.body.items ?? []).map((node) => node.id);
      const counted = answer.body.totals?.objects;
      const cellOf = () => {
        if (answer.status !== 200) return String(answer.status);
        if (ids.length === 1 && ids[0] === subject.id && counted === 1) return '✓';
        if (ids.length === 0 && counted === 0) return '–';
        return `listed ${JSON.stringify(ids)}, counted ${String(counted)}`;
      };
      return seen(answer, cellOf);
    }
    case 'listed': {
      const answer = await call<{ items?: { id: string }[] }>(
        'GET',
        `/api/v1/browser/nodes/${parent.id}/children?limit=1000`,
        as,
      );
      const listed =
        answer.status === 200 && (answer.body.items ?? []).some((node) => node.id === subject.id);
      // A catalog the caller may not read lists nothing: its 404 is "not listed".
      const known = answer.status === 200 || answer.status === 404;
      return seen(answer, () => (known ? (listed ? '✓' : '–') : String(answer.status)));
    }
    case 'item list': {
      const answer = await call<{ items?: { id: string }[] }>(
        'GET',
        `/api/v1/portal/items/?parentId=${parent.id}&limit=1000`,
        as,
      );
      const listed = (answer.body.items ?? []).some((node) => node.id === subject.id);
      return seen(answer, () => (answer.status === 200 ? (listed ? '✓' : '–') : String(answer.status)));
    }
    case 'path': {
      // A 404 must be the very answer to a path whose hidden objects do not exist, the asked-for
      // segments (the caller's own words) aside.
      const lookUp = (slugs: string) =>
        call<{ node?: { id: string } }>('GET', `/api/v1/browser/path/${slugs}`, as);
      const unasked = (answer: JsonResponse, slugs: string) =>
        slugs.split('/').reduce((text, slug) => text.split(slug).join('…'), JSON.stringify(answer.body));
      const answer = await lookUp(path);
      if (answer.status === 200 && answer.body.node?.id === subject.id) return seen(answer, () => '✓');
      const unknown = await lookUp(unknownPath);
      const text = unasked(answer, path);
      const sameAsUnknown = answer.status === unknown.status && text === unasked(unknown, unknownPath);
      const cellOf = () =>
        sameAsUnknown
          ? String(answer.status)
          : `${answer.status}, not as for an unknown path: ${unasked(unknown, unknownPath)}`;
      return { cell: cellOf(), text };
    }
    case 'feed':
      return { cell: found(fixture.feeds, cell.relation).has(subject.id) ? '✓' : '–', text: '' };
    case 'patch': {
      // The secret stays in the description: later reads still have something to leak or show.
      const body = { description: `${subject.secret} patched by ${cell.relation}` };
      return seen(await call('PATCH', item, { ...as, body }), command(200));
    }
    case 'list shares':
      return seen(await call('GET', `${item}/shares`, as), readCell);
    case 'share': {
      const body = { principal: fixture.crowd.principalOf({ person: 'bystander' }), permission: 'viewer' };
      return seen(await call('POST', `${item}/shares`, { ...as, body }), command(201));
    }
    case 'visibility': {
      const visibility = otherVisibility[lookup(situations, cell.situation).object.visibility];
      return seen(await call('PUT', `${item}/visibility`, { ...as, body: { visibility } }), command(200));
    }
    case 'create child': {
      const body = {
        title: `Child by ${cell.relation}`,
        description: 'below',
        links: [],
        parentId: subject.id,
      };
      return seen(await call('POST', '/api/v1/portal/collections/create', { ...as, body }), command(201));
    }
    case 'move':
    case 'move to root': {
      const body = { parentId: cell.operation === 'move' ? twin.id : null };
      return seen(await call('POST', `${item}/move`, { ...as, body }), command(200));
    }
    case 'delete':
      return seen(await call('DELETE', item, as), command(200));
  }
}

/** One case of "Rights on one object". */
export async function observeObjectCase(fixture: RightsFixture, cell: ObjectCase): Promise<Observation> {
  const { caller, objectsOf } = lookup(relations, cell.relation);
  const { parent, twin, object, path } = lookup(found(fixture.situationObjects, cell.situation), objectsOf);
  const fresh = freshOperations.includes(cell.operation);
  const subject = fresh ? found(fixture.fresh, objectKey(cell)) : object;
  const names = situationNames(objectsOf);
  const model = situationModel(cell.situation);
  const hidden = hiddenFrom(model, caller, [
    [names.parent, parent],
    [names.twin, twin],
    [names.object, subject],
  ]);
  // X's path with what the caller may not read replaced by slugs nothing has.
  const [parentSlug = '', objectSlug = ''] = path.split('/');
  const mayRead = (name: string) => model.canRead(actingOf(caller), name);
  const unknownSlug = (slug: string, name: string) => (mayRead(name) ? slug : `no-such-${randomUUID()}`);
  const unknownPath = `${unknownSlug(parentSlug, names.parent)}/${unknownSlug(objectSlug, names.object)}`;
  const answer = await request(fixture, cell, fixture.crowd.headersOf(caller), {
    parent,
    twin,
    subject,
    path,
    unknownPath,
  });
  const readsSubject = ['read', 'history', 'as of'].includes(cell.operation) && answer.cell === '✓';
  return { ...answer, hidden, shown: readsSubject ? subject.secret : null };
}
