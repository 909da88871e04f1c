import { badParameter } from './stac-problem.js';

/**
 * The fields extension's `fields` (docs/stac.md, "Fields"): which parts of each item a page carries.
 * A rule tree over dotted paths (`properties.eo:cloud_cover`), each node included or excluded, applied by
 * `item-fields.ts`. The semantics are the extension's (its "Include/Exclude Semantics" and its table of
 * missing, null and empty): the most specific path decides, and a path both included and excluded is
 * included.
 */
export type FieldMode = 'include' | 'exclude';

export interface FieldRule {
  readonly mode: FieldMode | null;
  readonly children: ReadonlyMap<string, FieldRule>;
}

export interface FieldsSelection {
  /** What a field no rule names gets: everything (`include`) or nothing (`exclude`). */
  readonly rest: FieldMode;
  readonly rules: FieldRule;
}

/**
 * What a `fields` path is a path of: its top-level names and, when names outside them are shorthands for
 * something deeper (an Item's properties), where those go; and the default set.
 */
export interface FieldsShape {
  /** Where a name that is not top-level goes (`properties` for an Item); null: it stays as given. */
  readonly nestUnknownUnder: string | null;
  readonly topLevel: ReadonlySet<string>;
  readonly defaults: readonly string[];
  /** Kept beside what `include` names, unless excluded by name: what says what an answer is. */
  readonly alwaysIncluded: readonly string[];
}

/** The top-level fields of a STAC Item; any other name is an item property (`properties.` optional). */
const ITEM_FIELDS = new Set([
  'type',
  'stac_version',
  'stac_extensions',
  'id',
  'geometry',
  'bbox',
  'properties',
  'links',
  'assets',
  'collection',
]);

/**
 * The default set (`fields` given, but neither list): the extension's fields of a valid STAC Item, and
 * `collection` and `stac_extensions` too, so the item still validates (its `collection` link requires
 * the field; its assets carry `file:size`). A range's start and end stand in for its null `datetime`.
 */
const DEFAULT_FIELDS = [
  'type',
  'stac_version',
  'stac_extensions',
  'id',
  'geometry',
  'bbox',
  'links',
  'assets',
  'collection',
  'properties.datetime',
  'properties.start_datetime',
  'properties.end_datetime',
];

/** A STAC Item: a name outside its top level is a property, `cloud` is `properties.cloud`. */
export const ITEM_FIELDS_SHAPE: FieldsShape = {
  nestUnknownUnder: 'properties',
  topLevel: ITEM_FIELDS,
  defaults: DEFAULT_FIELDS,
  // The extension lets a server keep fields not asked for; these four tell a client what each feature
  // is and where it lives, and the STAC API validator expects exactly them beside an include.
  alwaysIncluded: ['type', 'stac_version', 'id', 'links'],
};

export const MAX_FIELDS = 100;
const MAX_FIELD_LENGTH = 256;
const MAX_FIELD_DEPTH = 8;

const invalid = (message: string) => badParameter('fields', message, 'INVALID_FIELDS');

/** A field name as a path from the object's root: an Item's `datetime` is `properties.datetime`. */
function pathOf(name: string, shape: FieldsShape): readonly string[] {
  if (name === '') throw invalid('a field name must not be empty');
  if (name.length > MAX_FIELD_LENGTH)
    throw invalid(`a field name must be at most ${MAX_FIELD_LENGTH} characters`);
  const path = name.split('.');
  if (path.some((part) => part === '')) throw invalid(`'${name}' has an empty part`);
  if (path.length > MAX_FIELD_DEPTH) throw invalid(`'${name}' is nested more than ${MAX_FIELD_DEPTH} levels`);
  const [first = ''] = path;
  return shape.nestUnknownUnder === null || shape.topLevel.has(first)
    ? path
    : [shape.nestUnknownUnder, ...path];
}

interface MutableRule {
  mode: FieldMode | null;
  readonly children: Map<string, MutableRule>;
}

const emptyRule = (): MutableRule => ({ mode: null, children: new Map() });

function setRule(root: MutableRule, path: readonly string[], mode: FieldMode): void {
  let node = root;
  for (const part of path) {
    let child = node.children.get(part);
    if (child === undefined) {
      child = emptyRule();
      node.children.set(part, child);
    }
    node = child;
  }
  node.mode = mode;
}

const key = (path: readonly string[]) => path.join('.');
const within = (path: readonly string[], parent: readonly string[]) =>
  parent.length <= path.length && parent.every((part, index) => path[index] === part);

/**
 * `include` undefined means missing, null or [] means empty: the extension answers differently for a
 * POST with only `exclude` (everything but those) and one with an empty `include` (the default set but
 * those). Both lists empty or missing: the default set.
 */
function selection(
  include: readonly string[] | undefined | null,
  exclude: readonly string[] | null | undefined,
  shape: FieldsShape,
): FieldsSelection {
  const included = (include ?? []).map((name) => pathOf(name, shape));
  const excluded = (exclude ?? []).map((name) => pathOf(name, shape));
  if (included.length + excluded.length > MAX_FIELDS) throw invalid(`must name at most ${MAX_FIELDS} fields`);
  const rules = emptyRule();
  if (included.length > 0) {
    const kept = shape.alwaysIncluded
      .map((name) => [name])
      .filter((path) => !excluded.some((gone) => key(gone) === key(path)));
    // Includes after excludes: a field named both ways is included.
    for (const path of excluded) setRule(rules, path, 'exclude');
    for (const path of [...kept, ...included]) setRule(rules, path, 'include');
    return { rest: 'exclude', rules };
  }
  if (include === undefined && excluded.length > 0) {
    for (const path of excluded) setRule(rules, path, 'exclude');
    return { rest: 'include', rules };
  }
  // The default set, less what is excluded (a default field at or below an excluded one goes too).
  const defaults = shape.defaults
    .map((name) => name.split('.'))
    .filter((path) => !excluded.some((gone) => within(path, gone)));
  for (const path of excluded) setRule(rules, path, 'exclude');
  for (const path of defaults)
    if (!excluded.some((gone) => key(gone) === key(path))) setRule(rules, path, 'include');
  return { rest: 'exclude', rules };
}

/**
 * The GET form: `id,-geometry,+properties.eo:cloud_cover`. The text cannot say "missing", so a list of
 * excludes alone takes them from the default set, as the extension asks; `fields=` is the default set.
 */
export function parseFieldsText(text: string, shape: FieldsShape = ITEM_FIELDS_SHAPE): FieldsSelection {
  const names = text.trim() === '' ? [] : text.split(',').map((name) => name.trim());
  const include: string[] = [];
  const exclude: string[] = [];
  for (const name of names) {
    if (name.startsWith('-')) exclude.push(name.slice(1).trim());
    else include.push(name.replace(/^\+/, '').trim());
  }
  return selection(include, exclude, shape);
}

/** The POST form: `{ "include": [...], "exclude": [...] }`, either list missing, null or empty. */
export function parseFieldsBody(value: {
  readonly include?: readonly string[] | null;
  readonly exclude?: readonly string[] | null;
}): FieldsSelection {
  return selection(value.include, value.exclude, ITEM_FIELDS_SHAPE);
}
