import type { ArithmeticOp, Cql2Node, Geometry, IntervalBound } from './ast.js';
import { Cql2Error } from './errors.js';
import { bboxGeometry } from './geometry.js';
import { spatialRelation } from './jsts.js';
import { MICROS_PER_DAY, dateMicros, isSupportedNumber, timestampMicros } from './literals.js';
import { comparisonDomain, requireDomain, resolveProperty, unsupportedFunction } from './queryables.js';
import type { Domain, Queryable, QueryableResolver } from './queryables.js';
import { temporalRelations } from './temporal.js';
import { arrayLiteralValue } from './to-sql.js';

/**
 * A row as the evaluator reads it. `get` answers a property's value: for `json` and `array` queryables
 * the decoded JSON (undefined when missing), `timestamp` a Date or an ISO string, `date` 'YYYY-MM-DD',
 * `geometry` GeoJSON. `interval` answers [start, end] for queryables declared with an interval.
 */
export interface Cql2Record {
  get(name: string): unknown;
  interval?(name: string): readonly [unknown, unknown];
}

type Truth = boolean | null;
type Scalar = string | number | boolean;

/**
 * Evaluates a filter over one record in memory with the semantics of `cql2ToSql` (three-valued logic,
 * JSON values of the wrong type read as unknown, the same numeric guards), so that a search can be
 * checked against brute force. Returns true, false or null (unknown: the row is not selected).
 */
export function evaluateCql2(node: Cql2Node, queryables: QueryableResolver, record: Cql2Record): Truth {
  return new Evaluator(queryables, record).predicate(node);
}

const and3 = (values: Truth[]): Truth =>
  values.includes(false) ? false : values.includes(null) ? null : true;
const or3 = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) ? null : false);

/** Code point order, as PostgreSQL's "C" collation compares UTF-8 bytes. */
function compareStrings(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const difference = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}

/**
 * The order of two values read as numbers: NaN when either is not one (every comparison then false).
 * Equal infinities are equal, as in PostgreSQL: two open interval ends (`..`) are the same end, where
 * `Infinity - Infinity` would be NaN.
 */
function compareNumbers(a: Scalar, b: Scalar): number {
  const [x, y] = [Number(a), Number(b)];
  return x === y ? 0 : x - y;
}

function compare(op: string, a: Scalar | null, b: Scalar | null): Truth {
  if (a === null || b === null) return null;
  const order = typeof a === 'string' && typeof b === 'string' ? compareStrings(a, b) : compareNumbers(a, b);
  switch (op) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

/** A JSON value read as `domain`, null when of another type (mirrors jsonAs in the SQL translation). */
function jsonAs(value: unknown, domain: Domain): Scalar | null {
  switch (domain) {
    case 'number':
      return typeof value === 'number' && isSupportedNumber(value) ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'timestamp':
      return typeof value === 'string' ? (timestampMicros(value) ?? null) : null;
    case 'date':
      return typeof value === 'string' ? (dateMicros(value) ?? null) : null;
  }
}

function typedTimestamp(value: unknown): number | null {
  if (value instanceof Date) return value.getTime() * 1000;
  if (typeof value !== 'string') return null;
  const micros = timestampMicros(value);
  if (micros !== undefined) return micros;
  const millis = Date.parse(value);
  return Number.isNaN(millis) ? null : millis * 1000;
}

function typedDate(value: unknown): number | null {
  if (value instanceof Date) return value.getTime() * 1000;
  return typeof value === 'string' ? (dateMicros(value) ?? null) : null;
}

/** Lower case one code point at a time, as PostgreSQL's lower() does (no context rules). */
export function caseFold(text: string): string {
  return Array.from(text, (char) => (char === '\u0130' ? 'i' : char.toLowerCase())).join('');
}

export function stripAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

function likeRegex(pattern: string): RegExp {
  let source = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] as string;
    if (char === '\\') {
      i += 1;
      source += (chars[i] ?? '').replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    } else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}

function arithmetic(op: ArithmeticOp, l: number, r: number): number | null {
  const quotientFits = (): boolean => Math.abs(Math.log10(Math.abs(l)) - Math.log10(Math.abs(r))) <= 300;
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      if (l === 0 || r === 0) return 0;
      return Math.abs(Math.log10(Math.abs(l)) + Math.log10(Math.abs(r))) <= 300 ? l * r : null;
    case '/':
      if (r === 0) return null;
      if (l === 0) return 0;
      return quotientFits() ? l / r : null;
    case '%':
      if (r === 0) return null;
      if (l === 0) return 0;
      return quotientFits() ? l - r * Math.trunc(l / r) : null;
    case 'div':
      if (r === 0) return null;
      if (l === 0) return 0;
      return quotientFits() ? Math.trunc(l / r) : null;
    case '^':
      if (l === 0) return r < 0 ? null : r === 0 ? 1 : 0;
      if (l < 0 && r !== Math.trunc(r)) return null;
      return Math.abs(r * Math.log10(Math.abs(l))) <= 300 ? Math.pow(l, r) : null;
  }
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    );
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keys = Object.keys(x);
    return (
      keys.length === Object.keys(y).length && keys.every((key) => key in y && jsonEqual(x[key], y[key]))
    );
  }
  return a === b;
}

/** jsonb's @>: every element of `b` is contained in some element of `a`, recursively. */
function jsonContains(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return b.every((item) => a.some((candidate) => jsonContains(candidate, item)));
  if (Array.isArray(a) || Array.isArray(b)) return false;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    return Object.keys(y).every((key) => key in x && jsonContains(x[key], y[key]));
  }
  return a === b;
}

class Evaluator {
  constructor(
    private readonly resolve: QueryableResolver,
    private readonly record: Cql2Record,
  ) {}

  private queryable(name: string): Queryable {
    return resolveProperty(this.resolve, name);
  }

  predicate(node: Cql2Node): Truth {
    switch (node.kind) {
      case 'boolean':
        return node.value;
      case 'and':
        return and3(node.args.map((arg) => this.predicate(arg)));
      case 'or':
        return or3(node.args.map((arg) => this.predicate(arg)));
      case 'not': {
        const value = this.predicate(node.arg);
        return value === null ? null : !value;
      }
      case 'comparison':
        return this.comparison(node.op, node.left, node.right);
      case 'like':
        return this.like(node.value, node.pattern);
      case 'between': {
        for (const operand of [node.value, node.low, node.high])
          requireDomain(operand, 'number', this.resolve, 'BETWEEN');
        const [value, low, high] = [node.value, node.low, node.high].map((n) => this.value(n, 'number'));
        return and3([compare('>=', value ?? null, low ?? null), compare('<=', value ?? null, high ?? null)]);
      }
      case 'in':
        return or3(node.list.map((item) => this.comparison('=', node.value, item)));
      case 'isNull':
        return this.isNull(node.arg);
      case 'spatial': {
        const [left, right] = [this.geometry(node.left), this.geometry(node.right)];
        return left === null || right === null ? null : spatialRelation(node.op, left, right);
      }
      case 'temporal':
        return this.temporal(node.op, node.left, node.right);
      case 'arrayPredicate':
        return this.arrayPredicate(node.op, node.left, node.right);
      case 'function':
        throw unsupportedFunction(node.name);
      case 'accenti':
      case 'arithmetic':
      case 'array':
      case 'bbox':
      case 'casei':
      case 'date':
      case 'geometry':
      case 'interval':
      case 'number':
      case 'property':
      case 'string':
      case 'timestamp':
      case 'unbounded':
        throw new Cql2Error(`a ${node.kind} is not a predicate`);
    }
  }

  private comparison(op: string, left: Cql2Node, right: Cql2Node): Truth {
    const domain = comparisonDomain(left, right, this.resolve);
    if (domain !== 'json') return compare(op, this.value(left, domain), this.value(right, domain));
    const [a, b] = [this.raw(left), this.raw(right)];
    for (const type of ['number', 'string', 'boolean'] as const) {
      if (typeof a === type && typeof b === type) return compare(op, jsonAs(a, type), jsonAs(b, type));
    }
    return null;
  }

  private raw(node: Cql2Node): unknown {
    if (node.kind !== 'property') throw new Cql2Error('expected a property');
    this.queryable(node.name);
    return this.record.get(node.name);
  }

  private value(node: Cql2Node, domain: Domain, forArithmetic = false): Scalar | null {
    switch (node.kind) {
      case 'string':
      case 'number':
      case 'boolean':
        return node.value;
      case 'timestamp':
        return timestampMicros(node.value) ?? null;
      case 'date':
        return dateMicros(node.value) ?? null;
      case 'property': {
        const { type } = this.queryable(node.name);
        const value = this.record.get(node.name);
        if (value === undefined || value === null) return null;
        if (type === 'json') return jsonAs(value, domain);
        if (type === 'timestamp') return typedTimestamp(value);
        if (type === 'date') return typedDate(value);
        if (typeof value === 'number' && forArithmetic) return isSupportedNumber(value) ? value : null;
        return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? value
          : null;
      }
      case 'arithmetic': {
        requireDomain(node.left, 'number', this.resolve, `the operator ${node.op}`);
        requireDomain(node.right, 'number', this.resolve, `the operator ${node.op}`);
        const left = this.value(node.left, 'number', true);
        const right = this.value(node.right, 'number', true);
        if (typeof left !== 'number' || typeof right !== 'number') return null;
        const result = arithmetic(node.op, left, right);
        return result !== null && isSupportedNumber(result) ? result : null;
      }
      case 'casei':
      case 'accenti': {
        requireDomain(node.arg, 'string', this.resolve, node.kind.toUpperCase());
        const inner = this.value(node.arg, 'string');
        if (typeof inner !== 'string') return null;
        return node.kind === 'casei' ? caseFold(inner) : stripAccents(inner);
      }
      case 'function':
        throw unsupportedFunction(node.name);
      case 'and':
      case 'array':
      case 'arrayPredicate':
      case 'bbox':
      case 'between':
      case 'comparison':
      case 'geometry':
      case 'in':
      case 'interval':
      case 'isNull':
      case 'like':
      case 'not':
      case 'or':
      case 'spatial':
      case 'temporal':
      case 'unbounded':
        throw new Cql2Error(`a ${node.kind} has no ${domain} value`);
    }
  }

  private like(value: Cql2Node, pattern: Cql2Node): Truth {
    requireDomain(value, 'string', this.resolve, 'LIKE');
    const patternText = (node: Cql2Node): string => {
      if (node.kind === 'casei') return caseFold(patternText(node.arg));
      if (node.kind === 'accenti') return stripAccents(patternText(node.arg));
      if (node.kind !== 'string') throw new Cql2Error('the pattern of LIKE must be a string');
      return node.value;
    };
    const text = this.value(value, 'string');
    return typeof text === 'string' ? likeRegex(patternText(pattern)).test(text) : null;
  }

  private isNull(arg: Cql2Node): Truth {
    switch (arg.kind) {
      case 'property':
        this.queryable(arg.name);
        return this.record.get(arg.name) === undefined || this.record.get(arg.name) === null;
      case 'arithmetic':
        return this.value(arg, 'number') === null;
      case 'casei':
      case 'accenti':
        return this.value(arg, 'string') === null;
      case 'function':
        throw unsupportedFunction(arg.name);
      case 'and':
      case 'array':
      case 'arrayPredicate':
      case 'bbox':
      case 'between':
      case 'boolean':
      case 'comparison':
      case 'date':
      case 'geometry':
      case 'in':
      case 'interval':
      case 'isNull':
      case 'like':
      case 'not':
      case 'number':
      case 'or':
      case 'spatial':
      case 'string':
      case 'temporal':
      case 'timestamp':
      case 'unbounded':
        return false;
    }
  }

  private geometry(node: Cql2Node): Geometry | null {
    switch (node.kind) {
      case 'geometry':
        return node.geometry;
      case 'bbox':
        return bboxGeometry(node.values);
      case 'property': {
        const { type } = this.queryable(node.name);
        if (type !== 'geometry')
          throw new Cql2Error(`spatial functions need a geometry, not ${type} property '${node.name}'`);
        const value = this.record.get(node.name);
        return value === undefined || value === null ? null : (value as Geometry);
      }
      case 'function':
        throw unsupportedFunction(node.name);
      case 'accenti':
      case 'and':
      case 'arithmetic':
      case 'array':
      case 'arrayPredicate':
      case 'between':
      case 'boolean':
      case 'casei':
      case 'comparison':
      case 'date':
      case 'in':
      case 'interval':
      case 'isNull':
      case 'like':
      case 'not':
      case 'number':
      case 'or':
      case 'spatial':
      case 'string':
      case 'temporal':
      case 'timestamp':
      case 'unbounded':
        throw new Cql2Error(`a ${node.kind} is not a geometry`);
    }
  }

  private interval(node: Cql2Node): [number | null, number | null] {
    switch (node.kind) {
      case 'timestamp':
      case 'date':
        return [this.bound(node, 'start'), this.bound(node, 'end')];
      case 'interval':
        return [this.bound(node.start, 'start'), this.bound(node.end, 'end')];
      case 'property': {
        const queryable = this.queryable(node.name);
        if (queryable.interval) {
          const [start, end] = this.record.interval?.(node.name) ?? [null, null];
          return [typedTimestamp(start), typedTimestamp(end)];
        }
        return [this.bound(node, 'start'), this.bound(node, 'end')];
      }
      case 'function':
        throw unsupportedFunction(node.name);
      case 'accenti':
      case 'and':
      case 'arithmetic':
      case 'array':
      case 'arrayPredicate':
      case 'bbox':
      case 'between':
      case 'boolean':
      case 'casei':
      case 'comparison':
      case 'geometry':
      case 'in':
      case 'isNull':
      case 'like':
      case 'not':
      case 'number':
      case 'or':
      case 'spatial':
      case 'string':
      case 'temporal':
      case 'unbounded':
        throw new Cql2Error(`a ${node.kind} is not an instant or interval`);
    }
  }

  private bound(node: IntervalBound, side: 'start' | 'end'): number | null {
    switch (node.kind) {
      case 'unbounded':
        return side === 'start' ? -Infinity : Infinity;
      case 'timestamp':
        return timestampMicros(node.value) ?? null;
      case 'date': {
        const start = dateMicros(node.value) ?? null;
        return start === null || side === 'start' ? start : start + MICROS_PER_DAY - 1;
      }
      case 'property': {
        const { type } = this.queryable(node.name);
        const value = this.record.get(node.name);
        if (value === undefined || value === null) return null;
        if (type === 'timestamp') return typedTimestamp(value);
        if (type === 'json') return jsonAs(value, 'timestamp') as number | null;
        if (type === 'date') {
          const start = typedDate(value);
          return start === null || side === 'start' ? start : start + MICROS_PER_DAY - 1;
        }
        throw new Cql2Error(
          `temporal functions need an instant or interval, not ${type} property '${node.name}'`,
        );
      }
      case 'function':
        throw unsupportedFunction(node.name);
    }
  }

  private temporal(op: keyof typeof temporalRelations, left: Cql2Node, right: Cql2Node): Truth {
    const [s1, e1] = this.interval(left);
    const [s2, e2] = this.interval(right);
    const ends = { s1, e1, s2, e2 };
    const relation = temporalRelations[op];
    const values = relation.comparisons.map(([a, cmp, b]) => compare(cmp, ends[a], ends[b]));
    return relation.combine === 'all' ? and3(values) : or3(values);
  }

  private array(node: Cql2Node): unknown[] | null {
    switch (node.kind) {
      case 'array':
        return arrayLiteralValue(node) as unknown[];
      case 'property': {
        const { type } = this.queryable(node.name);
        if (type !== 'array' && type !== 'json') {
          throw new Cql2Error(`array functions need an array, not ${type} property '${node.name}'`);
        }
        const value = this.record.get(node.name);
        return Array.isArray(value) ? value : null;
      }
      case 'function':
        throw unsupportedFunction(node.name);
      case 'accenti':
      case 'and':
      case 'arithmetic':
      case 'arrayPredicate':
      case 'bbox':
      case 'between':
      case 'boolean':
      case 'casei':
      case 'comparison':
      case 'date':
      case 'geometry':
      case 'in':
      case 'interval':
      case 'isNull':
      case 'like':
      case 'not':
      case 'number':
      case 'or':
      case 'spatial':
      case 'string':
      case 'temporal':
      case 'timestamp':
      case 'unbounded':
        throw new Cql2Error(`a ${node.kind} is not an array`);
    }
  }

  private arrayPredicate(op: string, left: Cql2Node, right: Cql2Node): Truth {
    const [a, b] = [this.array(left), this.array(right)];
    if (a === null || b === null) return null;
    switch (op) {
      case 'a_equals':
        return jsonEqual(a, b);
      case 'a_contains':
        return jsonContains(a, b);
      case 'a_containedby':
        return jsonContains(b, a);
      default:
        return a.some((x) => b.some((y) => jsonEqual(x, y)));
    }
  }
}
