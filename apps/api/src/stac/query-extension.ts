import type { Cql2Node, QueryableResolver, QueryableType } from '@portal/cql2';
import { parseInstant } from './datetime-interval.js';
import { cql2Condition, resolveItemQueryable } from './item-filter.js';
import type { ItemCondition } from './item-query.js';
import { badParameter } from './stac-problem.js';

/**
 * The query extension's `query` (docs/stac.md, "Query"): `{"<property>": {"<operator>": value}}`, every
 * operator of every property ANDed. It is turned into a CQL2 tree and translated by the same SQL writer
 * as `filter` (`@portal/cql2`), so a property means here exactly what it means in a filter (the
 * queryables), with the same JSON type guards. As the extension says, string comparisons (`eq`, `neq`,
 * `in`, `startsWith`, `endsWith`, `contains`) ignore case (CQL2's CASEI); `lt`…`gte` take a number (or
 * a string that reads as one) or an RFC 3339 date-time.
 */

/** Bounds on one `query`: every value becomes SQL, so a huge one is refused, never run. */
export const MAX_QUERY_PROPERTIES = 50;
export const MAX_QUERY_VALUES = 200;

const CODE = 'INVALID_QUERY';
const invalid = (message: string) => badParameter('query', message, CODE);

const OPERATORS = [
  'eq',
  'neq',
  'lt',
  'lte',
  'gt',
  'gte',
  'startsWith',
  'endsWith',
  'contains',
  'in',
] as const;
type Operator = (typeof OPERATORS)[number];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const property = (name: string): Cql2Node => ({ kind: 'property', name });
const caseless = (node: Cql2Node): Cql2Node => ({ kind: 'casei', arg: node });
const not = (arg: Cql2Node): Cql2Node => ({ kind: 'not', arg });

/**
 * The queryable's type, which decides what a string value means: an instant against a time
 * (`datetime`, `created`…), a number against a number when it reads as one. An unknown name has none;
 * the translation then refuses it (a 400 naming it).
 */
type TypeOf = (name: string) => QueryableType | undefined;
const typeTest =
  (resolve: QueryableResolver): TypeOf =>
  (name) => {
    try {
      return resolve(name)?.type;
    } catch {
      return undefined;
    }
  };

/**
 * A string that reads as a JSON number (`"10"`, `"-0.5"`, `"3e2"`). Clients that build `query` from
 * text send numbers so (the STAC API validator takes its values from its command line), and a portal
 * property may hold either: such a string also compares as that number where the property may be one.
 */
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
function numberIn(text: string): number | null {
  if (!NUMBER_TEXT.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}
const mayBeNumber = (type: QueryableType | undefined) =>
  type === 'json' || type === 'number' || type === 'integer';

function instantOf(text: string, where: string): Cql2Node {
  return { kind: 'timestamp', value: parseInstant(text, `query: ${where}`, CODE) };
}

/**
 * `name op value` for eq and neq (and each value of `in`): strings ignore case, except against times; a
 * string that reads as a number matches that number too, where the property may hold one (each JSON
 * type is guarded, so the two tests never both apply to one value, and ORing them is right for `<>` too).
 */
function equality(name: string, op: '=' | '<>', value: unknown, where: string, typeOf: TypeOf): Cql2Node {
  if (value === null) {
    const isNull: Cql2Node = { kind: 'isNull', arg: property(name) };
    return op === '=' ? isNull : not(isNull);
  }
  if (typeof value === 'string') {
    const type = typeOf(name);
    if (type === 'timestamp')
      return { kind: 'comparison', op, left: property(name), right: instantOf(value, where) };
    const asText: Cql2Node = {
      kind: 'comparison',
      op,
      left: caseless(property(name)),
      right: caseless({ kind: 'string', value }),
    };
    const number = numberIn(value);
    if (number === null || !mayBeNumber(type)) return asText;
    const asNumber: Cql2Node = {
      kind: 'comparison',
      op,
      left: property(name),
      right: { kind: 'number', value: number },
    };
    return type === 'json' ? { kind: 'or', args: [asNumber, asText] } : asNumber;
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return { kind: 'comparison', op, left: property(name), right: { kind: 'number', value } };
  }
  if (typeof value === 'boolean') {
    return { kind: 'comparison', op, left: property(name), right: { kind: 'boolean', value } };
  }
  throw invalid(`${where} must be a string, a number, a boolean or null`);
}

function ordering(
  name: string,
  op: '<' | '<=' | '>' | '>=',
  value: unknown,
  where: string,
  typeOf: TypeOf,
): Cql2Node {
  const number = typeof value === 'string' && typeOf(name) !== 'timestamp' ? numberIn(value) : null;
  if (number !== null) {
    return { kind: 'comparison', op, left: property(name), right: { kind: 'number', value: number } };
  }
  if (typeof value === 'number' && Number.isFinite(value)) {
    return { kind: 'comparison', op, left: property(name), right: { kind: 'number', value } };
  }
  if (typeof value === 'string') {
    return { kind: 'comparison', op, left: property(name), right: instantOf(value, where) };
  }
  throw invalid(`${where} must be a number or an RFC 3339 date-time`);
}

/** LIKE with the value's own `%`, `_` and `\` escaped (`\` is the escape of CQL2 and PostgreSQL). */
function like(name: string, value: unknown, where: string, before: string, after: string): Cql2Node {
  if (typeof value !== 'string') throw invalid(`${where} must be a string`);
  const pattern = `${before}${value.replace(/[\\%_]/g, '\\$&')}${after}`;
  return {
    kind: 'like',
    value: caseless(property(name)),
    pattern: caseless({ kind: 'string', value: pattern }),
  };
}

/**
 * `in`: the property equals one of the values (as `eq` reads each), or, when it holds an array, shares
 * one with them (`A_OVERLAPS`: exact, an array's strings do not ignore case; a value written as a number
 * matches that number too), as clients ask of `instruments`. An array queryable (a collection's
 * `keywords`) takes the overlap alone: `eq` of an array is no comparison.
 */
function oneOf(name: string, value: unknown, where: string, typeOf: TypeOf): Cql2Node {
  if (!Array.isArray(value) || value.length === 0) throw invalid(`${where} must be a non-empty array`);
  const options = value.map((option: unknown, index): string | number => {
    if (typeof option !== 'string' && typeof option !== 'number') {
      throw invalid(`${where}[${index}] must be a string or a number`);
    }
    return option;
  });
  const literals = options.flatMap((option): Cql2Node[] => {
    if (typeof option === 'number') return [{ kind: 'number', value: option }];
    const number = numberIn(option);
    const text: Cql2Node = { kind: 'string', value: option };
    return number === null ? [text] : [text, { kind: 'number', value: number }];
  });
  const overlap: Cql2Node = {
    kind: 'arrayPredicate',
    op: 'a_overlaps',
    left: property(name),
    right: { kind: 'array', items: literals },
  };
  const type = typeOf(name);
  if (type === 'array') return overlap;
  const equalities = options.map((option, index) =>
    equality(name, '=', option, `${where}[${index}]`, typeOf),
  );
  if (type === 'json') equalities.push(overlap);
  return equalities.length === 1 ? (equalities[0] as Cql2Node) : { kind: 'or', args: equalities };
}

function condition(name: string, operator: Operator, value: unknown, typeOf: TypeOf): Cql2Node {
  const where = `'${name}'.${operator}`;
  switch (operator) {
    case 'eq':
      return equality(name, '=', value, where, typeOf);
    case 'neq':
      return equality(name, '<>', value, where, typeOf);
    case 'lt':
      return ordering(name, '<', value, where, typeOf);
    case 'lte':
      return ordering(name, '<=', value, where, typeOf);
    case 'gt':
      return ordering(name, '>', value, where, typeOf);
    case 'gte':
      return ordering(name, '>=', value, where, typeOf);
    case 'startsWith':
      return like(name, value, where, '', '%');
    case 'endsWith':
      return like(name, value, where, '%', '');
    case 'contains':
      return like(name, value, where, '%', '%');
    case 'in':
      return oneOf(name, value, where, typeOf);
  }
}

const valueCount = (value: unknown) => (Array.isArray(value) ? value.length : 1);

/**
 * The query object as one CQL2 predicate (`null` for `{}`, which restricts nothing), over the items'
 * queryables unless `resolve` gives another list's (collections).
 */
export function queryNode(
  query: unknown,
  resolve: QueryableResolver = resolveItemQueryable,
): Cql2Node | null {
  const typeOf = typeTest(resolve);
  if (!isObject(query)) throw invalid('must be an object of property names, each to an object of operators');
  const entries = Object.entries(query);
  if (entries.length > MAX_QUERY_PROPERTIES)
    throw invalid(`must name at most ${MAX_QUERY_PROPERTIES} properties`);
  const conditions: Cql2Node[] = [];
  let values = 0;
  for (const [given, operators] of entries) {
    const name = given.startsWith('properties.') ? given.slice('properties.'.length) : given;
    if (name === '' || name.includes('\u0000')) throw invalid(`'${given}' is not a property name`);
    if (!isObject(operators) || Object.keys(operators).length === 0) {
      throw invalid(`'${given}' must map to an object of operators (${OPERATORS.join(', ')})`);
    }
    for (const [operator, value] of Object.entries(operators)) {
      if (!(OPERATORS as readonly string[]).includes(operator)) {
        throw invalid(`'${given}': unknown operator '${operator}' (known: ${OPERATORS.join(', ')})`);
      }
      values += valueCount(value);
      if (values > MAX_QUERY_VALUES) throw invalid(`must hold at most ${MAX_QUERY_VALUES} values`);
      conditions.push(condition(name, operator as Operator, value, typeOf));
    }
  }
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] as Cql2Node) : { kind: 'and', args: conditions };
}

/** The GET form: the same object as JSON text. */
export function queryNodeFromText(
  text: string,
  resolve: QueryableResolver = resolveItemQueryable,
): Cql2Node | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('must be a JSON object (the POST form, as JSON text)');
  }
  return queryNode(value, resolve);
}

/** The request's `query` as a search condition, or none; a bad one is a 400 before any query runs. */
export function itemQueryCondition(node: Cql2Node | null): ItemCondition | null {
  return node === null ? null : cql2Condition(node, 'query', CODE);
}
