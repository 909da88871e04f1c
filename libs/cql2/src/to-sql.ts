import type { ArithmeticOp, Cql2Node, IntervalBound, SpatialOp } from './ast.js';
import { Cql2Error } from './errors.js';
import { bboxGeometry } from './geometry.js';
import { invalidGeometryReason } from './jsts.js';
import { MICROS_PER_DAY, dateMicros } from './literals.js';
import { comparisonDomain, requireDomain, resolveProperty, unsupportedFunction } from './queryables.js';
import type { Domain, Queryable, QueryableResolver } from './queryables.js';
import { temporalRelations } from './temporal.js';

/**
 * Translates a filter into a PostgreSQL+PostGIS boolean expression. Every value of the filter is pushed
 * onto `params` and referenced as `$n`; only the resolver's trusted SQL and fixed SQL text are written
 * into the result. Unknown properties, type errors and unsupported functions throw Cql2Error. No row
 * can make the expression fail at run time: values of the wrong JSON type read as NULL, arithmetic that
 * would overflow, underflow or divide by zero is NULL. The result is true, false or NULL (unknown).
 */
export function cql2ToSql(node: Cql2Node, queryables: QueryableResolver, params: unknown[]): string {
  return new SqlTranslator(queryables, params).predicate(node);
}

const spatialFunctions: Record<SpatialOp, string> = {
  s_intersects: 'ST_Intersects',
  s_equals: 'ST_Equals',
  s_disjoint: 'ST_Disjoint',
  s_touches: 'ST_Touches',
  s_within: 'ST_Within',
  s_overlaps: 'ST_Overlaps',
  s_crosses: 'ST_Crosses',
  s_contains: 'ST_Contains',
};

// Numbers read from JSON or computed are kept to ±1e300 (0 aside, ±1e-300 at the small end), so no
// double precision operation on them can overflow or underflow (both raise errors in PostgreSQL).
const supported = (v: string): string => `(abs(${v}) <= 1e300 AND (${v} = 0 OR abs(${v}) >= 1e-300))`;

const timestampRegex = String.raw`^(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z$`;
const dateRegex = String.raw`^(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$`;

/** True when the day of a text already matching the regexes above exists in its month. */
function dayExists(text: string): string {
  const year = `substr(${text}, 1, 4)::int`;
  const leap = `(${year} % 4 = 0 AND (${year} % 100 <> 0 OR ${year} % 400 = 0))`;
  return (
    `substr(${text}, 9, 2)::int <= CASE substr(${text}, 6, 2) WHEN '02' THEN CASE WHEN ${leap} THEN 29 ELSE 28 END ` +
    `WHEN '04' THEN 30 WHEN '06' THEN 30 WHEN '09' THEN 30 WHEN '11' THEN 30 ELSE 31 END`
  );
}

/** A JSON value read as `domain`, NULL when it is of another JSON type or not a valid instant. */
export function jsonAs(json: string, domain: Domain): string {
  const text = `(${json} #>> '{}')`;
  switch (domain) {
    case 'number': {
      const n = `(${json})::numeric`;
      return `CASE WHEN jsonb_typeof(${json}) <> 'number' THEN NULL WHEN ${supported(n)} THEN (${json})::float8 END`;
    }
    case 'string':
      return `CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${text} END`;
    case 'boolean':
      return `CASE WHEN jsonb_typeof(${json}) = 'boolean' THEN (${json})::boolean END`;
    case 'timestamp':
      return `CASE WHEN jsonb_typeof(${json}) <> 'string' OR NOT ${text} ~ '${timestampRegex}' THEN NULL WHEN ${dayExists(text)} THEN ${text}::timestamptz END`;
    case 'date':
      return `CASE WHEN jsonb_typeof(${json}) <> 'string' OR NOT ${text} ~ '${dateRegex}' THEN NULL WHEN ${dayExists(text)} THEN ${text}::date END`;
  }
}

const arithmeticSql: Record<ArithmeticOp, string> = {
  '+': 'l + r',
  '-': 'l - r',
  '*': 'CASE WHEN l = 0 OR r = 0 THEN 0::float8 WHEN log(abs(l)) + log(abs(r)) BETWEEN -300 AND 300 THEN l * r END',
  '/': 'CASE WHEN r = 0 THEN NULL WHEN l = 0 THEN 0::float8 WHEN log(abs(l)) - log(abs(r)) BETWEEN -300 AND 300 THEN l / r END',
  '%': 'CASE WHEN r = 0 THEN NULL WHEN l = 0 THEN 0::float8 WHEN log(abs(l)) - log(abs(r)) BETWEEN -300 AND 300 THEN l - r * trunc(l / r) END',
  div: 'CASE WHEN r = 0 THEN NULL WHEN l = 0 THEN 0::float8 WHEN log(abs(l)) - log(abs(r)) BETWEEN -300 AND 300 THEN trunc(l / r) END',
  '^':
    'CASE WHEN l = 0 AND r < 0 THEN NULL WHEN l = 0 THEN CASE WHEN r = 0 THEN 1::float8 ELSE 0::float8 END ' +
    'WHEN l < 0 AND r <> trunc(r) THEN NULL WHEN abs(r * log(abs(l))) <= 300 THEN power(l, r) END',
};

const unicodeMarks = String.raw`[\u0300-\u036f]`;

class SqlTranslator {
  constructor(
    private readonly resolve: QueryableResolver,
    private readonly params: unknown[],
  ) {}

  private param(value: unknown, cast: string): string {
    this.params.push(value);
    return `$${this.params.length}::${cast}`;
  }

  private queryable(name: string): Queryable {
    return resolveProperty(this.resolve, name);
  }

  predicate(node: Cql2Node): string {
    switch (node.kind) {
      case 'boolean':
        return node.value ? 'TRUE' : 'FALSE';
      case 'and':
      case 'or':
        return `(${node.args.map((arg) => this.predicate(arg)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `(NOT ${this.predicate(node.arg)})`;
      case 'comparison':
        return this.comparison(node.op, node.left, node.right);
      case 'like':
        return this.like(node.value, node.pattern);
      case 'between': {
        for (const operand of [node.value, node.low, node.high])
          requireDomain(operand, 'number', this.resolve, 'BETWEEN');
        const [value, low, high] = [node.value, node.low, node.high].map((n) => this.value(n, 'number'));
        return `((${value}) BETWEEN (${low}) AND (${high}))`;
      }
      case 'in':
        return `(${node.list.map((item) => this.comparison('=', node.value, item)).join(' OR ')})`;
      case 'isNull':
        return this.isNull(node.arg);
      case 'spatial':
        return `${spatialFunctions[node.op]}(${this.geometry(node.left)}, ${this.geometry(node.right)})`;
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

  private comparison(op: string, left: Cql2Node, right: Cql2Node): string {
    const domain = comparisonDomain(left, right, this.resolve);
    if (domain === 'json') return this.jsonComparison(op, left, right);
    const collate = domain === 'string' && op !== '=' && op !== '<>' ? ' COLLATE "C"' : '';
    return `((${this.value(left, domain)})${collate} ${op} (${this.value(right, domain)}))`;
  }

  /** Two untyped JSON properties: compared when both hold numbers, both strings or both booleans. */
  private jsonComparison(op: string, left: Cql2Node, right: Cql2Node): string {
    const [a, b] = [this.json(left), this.json(right)];
    const both = (type: string): string =>
      `jsonb_typeof(${a}) = '${type}' AND jsonb_typeof(${b}) = '${type}'`;
    return (
      `(CASE WHEN ${both('number')} THEN (${jsonAs(a, 'number')}) ${op} (${jsonAs(b, 'number')}) ` +
      `WHEN ${both('string')} THEN (${jsonAs(a, 'string')}) COLLATE "C" ${op} (${jsonAs(b, 'string')}) ` +
      `WHEN ${both('boolean')} THEN (${jsonAs(a, 'boolean')}) ${op} (${jsonAs(b, 'boolean')}) END)`
    );
  }

  private json(node: Cql2Node): string {
    if (node.kind !== 'property') throw new Cql2Error('expected a property');
    return `(${this.queryable(node.name).sql})`;
  }

  /** SQL for `node` read as a `domain` value (NULL when a JSON value is of another type). */
  private value(node: Cql2Node, domain: Domain, forArithmetic = false): string {
    switch (node.kind) {
      case 'string':
        return this.param(node.value, 'text');
      case 'number':
        return this.param(node.value, 'float8');
      case 'boolean':
        return this.param(node.value, 'boolean');
      case 'timestamp':
        return this.param(node.value, 'timestamptz');
      case 'date':
        return domain === 'timestamp'
          ? this.param(new Date((dateMicros(node.value) ?? 0) / 1000).toISOString(), 'timestamptz')
          : this.param(node.value, 'date');
      case 'property': {
        const { sql, type } = this.queryable(node.name);
        if (type === 'json') return jsonAs(`(${sql})`, domain);
        if (type === 'date' && domain === 'timestamp') return `((${sql})::timestamp AT TIME ZONE 'UTC')`;
        if ((type === 'number' || type === 'integer') && forArithmetic) {
          return `CASE WHEN ${supported(`(${sql})::float8`)} THEN (${sql})::float8 END`;
        }
        return `(${sql})`;
      }
      case 'arithmetic': {
        requireDomain(node.left, 'number', this.resolve, `the operator ${node.op}`);
        requireDomain(node.right, 'number', this.resolve, `the operator ${node.op}`);
        const left = this.value(node.left, 'number', true);
        const right = this.value(node.right, 'number', true);
        return (
          `(SELECT CASE WHEN ${supported('v')} THEN v END FROM ` +
          `(SELECT CASE WHEN l IS NULL OR r IS NULL THEN NULL ELSE ${arithmeticSql[node.op]} END AS v FROM (SELECT (${left})::float8 AS l, (${right})::float8 AS r) AS operands) AS result)`
        );
      }
      case 'casei':
        requireDomain(node.arg, 'string', this.resolve, 'CASEI');
        return `lower(${this.value(node.arg, 'string')})`;
      case 'accenti':
        requireDomain(node.arg, 'string', this.resolve, 'ACCENTI');
        return `normalize(regexp_replace(normalize(${this.value(node.arg, 'string')}, NFD), '${unicodeMarks}', '', 'g'), NFC)`;
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

  private like(value: Cql2Node, pattern: Cql2Node): string {
    requireDomain(value, 'string', this.resolve, 'LIKE');
    const patternSql = (node: Cql2Node): string => {
      if (node.kind === 'casei') return `lower(${patternSql(node.arg)})`;
      if (node.kind === 'accenti') {
        return `normalize(regexp_replace(normalize(${patternSql(node.arg)}, NFD), '${unicodeMarks}', '', 'g'), NFC)`;
      }
      if (node.kind !== 'string') throw new Cql2Error('the pattern of LIKE must be a string');
      if (/(?:^|[^\\])(?:\\\\)*\\$/.test(node.value)) {
        throw new Cql2Error('a LIKE pattern must not end with a lone escape character "\\"');
      }
      return this.param(node.value, 'text');
    };
    return `((${this.value(value, 'string')}) LIKE (${patternSql(pattern)}))`;
  }

  private isNull(arg: Cql2Node): string {
    switch (arg.kind) {
      case 'property': {
        const { sql, type } = this.queryable(arg.name);
        return type === 'json' ? `((${sql}) IS NULL OR jsonb_typeof(${sql}) = 'null')` : `((${sql}) IS NULL)`;
      }
      case 'arithmetic':
        return `((${this.value(arg, 'number')}) IS NULL)`;
      case 'casei':
      case 'accenti':
        return `((${this.value(arg, 'string')}) IS NULL)`;
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
        return 'FALSE';
    }
  }

  private geometry(node: Cql2Node): string {
    switch (node.kind) {
      case 'geometry': {
        const reason = invalidGeometryReason(node.geometry);
        if (reason) throw new Cql2Error(`invalid geometry: ${reason}`);
        return `ST_SetSRID(ST_GeomFromGeoJSON(${this.param(JSON.stringify(node.geometry), 'text')}), 4326)`;
      }
      case 'bbox': {
        const polygon = bboxGeometry(node.values);
        return `ST_SetSRID(ST_GeomFromGeoJSON(${this.param(JSON.stringify(polygon), 'text')}), 4326)`;
      }
      case 'property': {
        const { sql, type } = this.queryable(node.name);
        if (type !== 'geometry')
          throw new Cql2Error(`spatial functions need a geometry, not ${type} property '${node.name}'`);
        return `(${sql})`;
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

  /**
   * [start, end] of a temporal operand as timestamptz SQL, built on demand: a relation that reads only
   * one end must not push a parameter for the other (PostgreSQL cannot type an unused parameter).
   */
  private interval(node: Cql2Node): [() => string, () => string] {
    switch (node.kind) {
      case 'timestamp':
      case 'date':
        return [() => this.bound(node, 'start'), () => this.bound(node, 'end')];
      case 'interval':
        this.bound(node.start, 'start', true);
        this.bound(node.end, 'end', true);
        return [() => this.bound(node.start, 'start'), () => this.bound(node.end, 'end')];
      case 'property': {
        const queryable = this.queryable(node.name);
        const { interval } = queryable;
        if (interval) return [() => `(${interval.start})`, () => `(${interval.end})`];
        this.bound(node, 'start', true);
        return [() => this.bound(node, 'start'), () => this.bound(node, 'end')];
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

  /** One end of an instant or interval; a date covers its whole day (UTC). */
  /** With `checkOnly`, validates the bound (throwing type errors) without pushing parameters. */
  private bound(node: IntervalBound, side: 'start' | 'end', checkOnly = false): string {
    if (checkOnly && node.kind !== 'property' && node.kind !== 'function') return '';
    switch (node.kind) {
      case 'unbounded':
        return side === 'start' ? "'-infinity'::timestamptz" : "'infinity'::timestamptz";
      case 'timestamp':
        return this.param(node.value, 'timestamptz');
      case 'date': {
        const micros = (dateMicros(node.value) ?? 0) + (side === 'end' ? MICROS_PER_DAY - 1 : 0);
        return this.param(microsToIso(micros), 'timestamptz');
      }
      case 'property': {
        const { sql, type } = this.queryable(node.name);
        if (type === 'timestamp') return `(${sql})`;
        if (type === 'json') return jsonAs(`(${sql})`, 'timestamp');
        if (type === 'date') {
          const start = `((${sql})::timestamp AT TIME ZONE 'UTC')`;
          return side === 'start' ? start : `(${start} + interval '1 day' - interval '1 microsecond')`;
        }
        throw new Cql2Error(
          `temporal functions need an instant or interval, not ${type} property '${node.name}'`,
        );
      }
      case 'function':
        throw unsupportedFunction(node.name);
    }
  }

  private temporal(op: keyof typeof temporalRelations, left: Cql2Node, right: Cql2Node): string {
    const [s1, e1] = this.interval(left);
    const [s2, e2] = this.interval(right);
    const builders = { s1, e1, s2, e2 };
    const built = new Map<string, string>();
    const end = (name: keyof typeof builders): string => {
      const sql = built.get(name) ?? builders[name]();
      built.set(name, sql);
      return sql;
    };
    const relation = temporalRelations[op];
    const parts = relation.comparisons.map(([a, cmp, b]) => `${end(a)} ${cmp} ${end(b)}`);
    return `(${parts.join(relation.combine === 'all' ? ' AND ' : ' OR ')})`;
  }

  private array(node: Cql2Node): string {
    switch (node.kind) {
      case 'array':
        return this.param(JSON.stringify(arrayLiteralValue(node)), 'jsonb');
      case 'property': {
        const { sql, type } = this.queryable(node.name);
        if (type !== 'array' && type !== 'json') {
          throw new Cql2Error(`array functions need an array, not ${type} property '${node.name}'`);
        }
        return `(CASE WHEN jsonb_typeof(${sql}) = 'array' THEN (${sql}) END)`;
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

  private arrayPredicate(op: string, left: Cql2Node, right: Cql2Node): string {
    const [a, b] = [this.array(left), this.array(right)];
    switch (op) {
      case 'a_equals':
        return `(${a} = ${b})`;
      case 'a_contains':
        return `(${a} @> ${b})`;
      case 'a_containedby':
        return `(${a} <@ ${b})`;
      default:
        return (
          `(CASE WHEN ${a} IS NULL OR ${b} IS NULL THEN NULL ELSE EXISTS (SELECT 1 FROM jsonb_array_elements(${a}) AS x(v), ` +
          `jsonb_array_elements(${b}) AS y(v) WHERE x.v = y.v) END)`
        );
    }
  }
}

export function microsToIso(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const rest = micros - millis * 1000;
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, -1)}${String(rest).padStart(3, '0')}Z`;
}

/** An array literal as JSON: strings, numbers, booleans and nested arrays (what jsonb compares). */
export function arrayLiteralValue(node: Cql2Node): unknown {
  switch (node.kind) {
    case 'array':
      return node.items.map(arrayLiteralValue);
    case 'string':
    case 'number':
    case 'boolean':
      return node.value;
    case 'accenti':
    case 'and':
    case 'arithmetic':
    case 'arrayPredicate':
    case 'bbox':
    case 'between':
    case 'casei':
    case 'comparison':
    case 'date':
    case 'function':
    case 'geometry':
    case 'in':
    case 'interval':
    case 'isNull':
    case 'like':
    case 'not':
    case 'or':
    case 'property':
    case 'spatial':
    case 'temporal':
    case 'timestamp':
    case 'unbounded':
      throw new Cql2Error('array literals in filters hold strings, numbers, booleans or arrays');
  }
}
