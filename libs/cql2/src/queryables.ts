import type { Cql2Node } from './ast.js';
import { Cql2Error } from './errors.js';

/**
 * What a property name means. `sql` is a trusted SQL expression over the searched row; its value is of
 * `type` (`json`: a jsonb value of any JSON type, e.g. `o.properties->'eo:cloud_cover'`; `array`: a jsonb
 * array; `geometry`: a PostGIS geometry in EPSG:4326; `timestamp`: timestamptz; `date`: date). `interval`
 * gives the property's temporal extent for the T_ functions when it is an interval (an item's
 * start_datetime/end_datetime) — comparisons keep using `sql`.
 */
export type QueryableType =
  'string' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'date' | 'geometry' | 'array' | 'json';

export interface Queryable {
  sql: string;
  type: QueryableType;
  interval?: { start: string; end: string };
}

export type QueryableResolver = (name: string) => Queryable | undefined;

export function resolveProperty(resolve: QueryableResolver, name: string): Queryable {
  const queryable = resolve(name);
  if (!queryable) throw new Cql2Error(`unknown property '${name}'`);
  return queryable;
}

/** The scalar types comparisons work in. */
export type Domain = 'string' | 'number' | 'boolean' | 'timestamp' | 'date';
export type StaticType = Domain | 'json' | 'geometry' | 'array' | 'interval';

export function unsupportedFunction(name: string): Cql2Error {
  return new Cql2Error(`unsupported function '${name}'`);
}

export function staticType(node: Cql2Node, resolve: QueryableResolver): StaticType {
  switch (node.kind) {
    case 'string':
    case 'casei':
    case 'accenti':
      return 'string';
    case 'number':
    case 'arithmetic':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'timestamp':
      return 'timestamp';
    case 'date':
      return 'date';
    case 'property': {
      const type = resolveProperty(resolve, node.name).type;
      return type === 'integer' ? 'number' : type;
    }
    case 'geometry':
    case 'bbox':
      return 'geometry';
    case 'array':
      return 'array';
    case 'interval':
      return 'interval';
    case 'function':
      throw unsupportedFunction(node.name);
    case 'unbounded':
    case 'and':
    case 'or':
    case 'not':
    case 'comparison':
    case 'like':
    case 'between':
    case 'in':
    case 'isNull':
    case 'spatial':
    case 'temporal':
    case 'arrayPredicate':
      return 'boolean';
  }
}

function describe(node: Cql2Node, type: StaticType): string {
  return node.kind === 'property' ? `${type} property '${node.name}'` : `a ${type}`;
}

/**
 * The type two operands are compared in, or 'json' when both are untyped JSON and the comparison is
 * decided row by row. A JSON operand takes the other side's type; a value of another JSON type is
 * unknown (null) rather than an error.
 */
export function comparisonDomain(
  left: Cql2Node,
  right: Cql2Node,
  resolve: QueryableResolver,
): Domain | 'json' {
  const leftType = staticType(left, resolve);
  const rightType = staticType(right, resolve);
  const mismatch = (): Cql2Error =>
    new Cql2Error(`cannot compare ${describe(left, leftType)} with ${describe(right, rightType)}`);
  for (const type of [leftType, rightType]) {
    if (type === 'geometry' || type === 'array' || type === 'interval') {
      throw new Cql2Error(
        `cannot compare ${type}s with comparison operators (use the S_, A_ or T_ functions)`,
      );
    }
  }
  if (leftType === 'json' && rightType === 'json') return 'json';
  if (leftType === 'json') return rightType as Domain;
  if (rightType === 'json') return leftType as Domain;
  if (leftType === rightType) return leftType as Domain;
  const pair = new Set([leftType, rightType]);
  if (pair.has('timestamp') && pair.has('date')) return 'timestamp';
  throw mismatch();
}

/** Checks that `node` can be read as a `domain` value (a JSON property always can). */
export function requireDomain(
  node: Cql2Node,
  domain: Domain,
  resolve: QueryableResolver,
  what: string,
): void {
  const type = staticType(node, resolve);
  if (type === 'json' || type === domain || (domain === 'timestamp' && type === 'date')) return;
  throw new Cql2Error(`${what} needs a ${domain}, not ${describe(node, type)}`);
}
