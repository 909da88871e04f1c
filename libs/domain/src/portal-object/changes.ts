import { DomainError } from '../errors.js';
import type { PortalObjectChanges } from './events.js';
import { withArticle } from './hierarchy.js';
import { jsonEqual } from './json-equal.js';
import type { LivePortalObject } from './state.js';
import type { PortalKind } from './types.js';

type Field = keyof PortalObjectChanges;
type Value<K extends Field> = Exclude<PortalObjectChanges[K], undefined>;
type WritableChanges = { -readonly [K in Field]?: Value<K> };

/** Fields every kind has; the rest belong to one kind only. */
const commonFields = ['title', 'description', 'links'] as const satisfies readonly Field[];
const fieldsOfKind: Readonly<Record<PortalKind, readonly Field[]>> = {
  catalog: commonFields,
  collection: [...commonFields, 'license', 'keywords', 'extent'],
  item: [...commonFields, 'assets', 'metadata'],
};

export interface ChangeSet {
  /** Only the fields whose value really changes, with their new values. */
  readonly changes: PortalObjectChanges;
  /** The same fields with their values before the change. */
  readonly previous: PortalObjectChanges;
}

/** Refuses a field the object's kind does not have, e.g. a license on a catalog. */
export function checkFieldsApply(id: string, kind: PortalKind, requested: PortalObjectChanges): void {
  const allowed = fieldsOfKind[kind];
  const foreign = (Object.keys(requested) as Field[]).filter(
    (field) => requested[field] !== undefined && !allowed.includes(field),
  );
  if (foreign.length === 0) return;
  const verb = foreign.length === 1 ? 'does' : 'do';
  throw new DomainError(
    'INVALID_COMMAND',
    `${kind} ${id}: ${foreign.join(', ')} ${verb} not apply to ${withArticle(kind)} (allowed: ${allowed.join(', ')})`,
  );
}

/** Compares the requested values with the current ones; `null` when nothing would change. */
export function diffChanges(state: LivePortalObject, requested: PortalObjectChanges): ChangeSet | null {
  const changes: WritableChanges = {};
  const previous: WritableChanges = {};
  const compare = <K extends Field>(field: K, next: Value<K> | undefined, before: Value<K>): void => {
    if (next === undefined || jsonEqual(next, before)) return;
    changes[field] = next;
    previous[field] = before;
  };
  compare('title', requested.title, state.title);
  compare('description', requested.description, state.description);
  compare('links', requested.links, state.links);
  if (state.kind === 'collection') {
    compare('license', requested.license, state.license);
    compare('keywords', requested.keywords, state.keywords);
    compare('extent', requested.extent, state.extent);
  }
  if (state.kind === 'item') {
    compare('assets', requested.assets, state.hrefAssets);
    compare('metadata', requested.metadata, state.metadata);
  }
  return Object.keys(changes).length === 0 ? null : { changes, previous };
}
