import { arithmeticOps, arrayOps, comparisonOps, spatialOps, temporalOps } from './ast.js';
import type {
  ArithmeticOp,
  ArrayOp,
  ComparisonOp,
  Cql2Node,
  Geometry,
  IntervalBound,
  SpatialOp,
  TemporalOp,
} from './ast.js';
import { Cql2Error } from './errors.js';
import { geometryProblem, plainGeometry } from './geometry.js';
import { MAX_CQL2_DEPTH } from './limits.js';
import { dateMicros, timestampMicros } from './literals.js';
import { checkSize, isBooleanOperand, shapeProblem } from './shape.js';

const comparisonSet = new Set<string>(comparisonOps);
const arithmeticSet = new Set<string>(arithmeticOps);
const spatialSet = new Set<string>(spatialOps);
const temporalSet = new Set<string>(temporalOps);
const arraySet = new Set<string>(arrayOps);
const geometryTypes = new Set([
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
]);

/**
 * Parses CQL2 JSON (an already decoded JSON value) into the tree. Errors name the JSON path of the
 * offending member, e.g. `args[1].args[0]`.
 */
export function parseCql2Json(value: unknown): Cql2Node {
  const node = convert(value, '', 0);
  if (!isBooleanOperand(node)) fail('', 'a filter must be a predicate');
  checkSize(node);
  return node;
}

function fail(path: string, message: string): never {
  throw new Cql2Error(`invalid CQL2 JSON${path ? ` at ${path}` : ''}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function make(path: string, node: Cql2Node): Cql2Node {
  const problem = shapeProblem(node);
  if (problem) fail(path, problem);
  return node;
}

function convert(value: unknown, path: string, depth: number): Cql2Node {
  if (depth > MAX_CQL2_DEPTH) fail(path, `the filter nests deeper than ${MAX_CQL2_DEPTH} levels`);
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number') return make(path, { kind: 'number', value: value === 0 ? 0 : value });
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (Array.isArray(value)) {
    return make(path, {
      kind: 'array',
      items: value.map((item, i) => convert(item, `${path}[${i}]`, depth + 1)),
    });
  }
  if (!isObject(value))
    return fail(path, 'expected a string, number, boolean, array or object (null is no CQL2 value)');
  const keys = Object.keys(value);
  const only = (key: string): boolean => keys.length === 1 && keys[0] === key;
  if (only('property')) {
    if (typeof value.property !== 'string') fail(path, '"property" must be a string');
    return { kind: 'property', name: value.property };
  }
  if (only('timestamp') || only('date')) {
    const kind = only('date') ? 'date' : 'timestamp';
    const text = value[kind];
    if (typeof text !== 'string') return fail(path, `"${kind}" must be a string`);
    return make(path, { kind, value: text });
  }
  if (only('interval')) return convertInterval(value.interval, path, depth);
  if (only('bbox')) {
    const values = value.bbox;
    if (!Array.isArray(values) || !values.every((n) => typeof n === 'number'))
      fail(path, '"bbox" must be an array of numbers');
    return make(path, { kind: 'bbox', values: values.map((n: number) => (n === 0 ? 0 : n)) });
  }
  if (typeof value.type === 'string' && geometryTypes.has(value.type)) {
    const problem = geometryProblem(value, { positions: 0 });
    if (problem) fail(path, problem);
    return { kind: 'geometry', geometry: plainGeometry(value as unknown as Geometry) };
  }
  if (isObject(value.function) && keys.length === 1) {
    // The function form of the 2022 drafts: { "function": { "name": ..., "args": [...] } }.
    return convertOperation(value.function.name, value.function.args ?? [], path, depth);
  }
  if ('op' in value && keys.every((key) => key === 'op' || key === 'args')) {
    return convertOperation(value.op, value.args, path, depth);
  }
  return fail(path, `unrecognised object with members ${JSON.stringify(keys)}`);
}

function convertInterval(value: unknown, path: string, depth: number): Cql2Node {
  if (!Array.isArray(value) || value.length !== 2)
    return fail(path, '"interval" must be an array of two bounds');
  const bounds = value.map((bound: unknown, index): IntervalBound => {
    const at = `${path}.interval[${index}]`;
    if (bound === '..') return { kind: 'unbounded' };
    if (typeof bound === 'string') {
      if (dateMicros(bound) !== undefined) return { kind: 'date', value: bound };
      if (timestampMicros(bound) !== undefined) return { kind: 'timestamp', value: bound };
      return fail(at, `invalid interval bound '${bound}' (expected '..', a date or a timestamp)`);
    }
    const node = convert(bound, at, depth + 1);
    if (node.kind === 'property' || node.kind === 'function') return node;
    return fail(at, 'an interval bound is a date, a timestamp, "..", a property or a function');
  }) as [IntervalBound, IntervalBound];
  return { kind: 'interval', start: bounds[0], end: bounds[1] };
}

function convertOperation(rawOp: unknown, rawArgs: unknown, path: string, depth: number): Cql2Node {
  if (typeof rawOp !== 'string' || rawOp === '') return fail(path, '"op" must be a non-empty string');
  if (!Array.isArray(rawArgs)) return fail(path, `"args" of "${rawOp}" must be an array`);
  const op = rawOp.toLowerCase();
  const arg = (index: number): Cql2Node => {
    if (index >= rawArgs.length) fail(path, `"${rawOp}" needs more arguments`);
    return convert(rawArgs[index], `${path}${path ? '.' : ''}args[${index}]`, depth + 1);
  };
  const arity = (count: number): void => {
    if (rawArgs.length !== count) fail(path, `"${rawOp}" takes ${count} argument${count === 1 ? '' : 's'}`);
  };
  const all = (): Cql2Node[] => rawArgs.map((_, index) => arg(index));
  if (op === 'and' || op === 'or') return make(path, { kind: op, args: all() });
  if (op === 'not' || op === 'isnull' || op === 'casei' || op === 'accenti') {
    arity(1);
    const kind = op === 'isnull' ? 'isNull' : op;
    return make(path, { kind, arg: arg(0) });
  }
  if (comparisonSet.has(op)) {
    arity(2);
    return make(path, { kind: 'comparison', op: op as ComparisonOp, left: arg(0), right: arg(1) });
  }
  if (arithmeticSet.has(op)) {
    arity(2);
    return make(path, { kind: 'arithmetic', op: op as ArithmeticOp, left: arg(0), right: arg(1) });
  }
  if (op === 'like') {
    arity(2);
    return make(path, { kind: 'like', value: arg(0), pattern: arg(1) });
  }
  if (op === 'between') {
    // The drafts before CQL2 1.0 wrote `[value, [low, high]]`, and clients still send it (the STAC API
    // validator does); the 1.0 form is `[value, low, high]`.
    const bounds: unknown = rawArgs[1];
    if (rawArgs.length === 2 && Array.isArray(bounds) && bounds.length === 2) {
      const bound = (index: number): Cql2Node =>
        convert(bounds[index], `${path}${path ? '.' : ''}args[1][${index}]`, depth + 2);
      return make(path, { kind: 'between', value: arg(0), low: bound(0), high: bound(1) });
    }
    arity(3);
    return make(path, { kind: 'between', value: arg(0), low: arg(1), high: arg(2) });
  }
  if (op === 'in') {
    arity(2);
    const list: unknown = rawArgs[1];
    if (!Array.isArray(list)) return fail(path, 'the second argument of "in" must be an array');
    const items = list.map((item, index) =>
      convert(item, `${path}${path ? '.' : ''}args[1][${index}]`, depth + 2),
    );
    return make(path, { kind: 'in', value: arg(0), list: items });
  }
  if (spatialSet.has(op) || temporalSet.has(op) || arraySet.has(op)) {
    arity(2);
    const [left, right] = [arg(0), arg(1)];
    if (spatialSet.has(op)) return make(path, { kind: 'spatial', op: op as SpatialOp, left, right });
    if (temporalSet.has(op)) return make(path, { kind: 'temporal', op: op as TemporalOp, left, right });
    return make(path, { kind: 'arrayPredicate', op: op as ArrayOp, left, right });
  }
  // Any other operator is a function call; whether it exists is decided when the filter is used.
  return make(path, { kind: 'function', name: rawOp, args: all() });
}
