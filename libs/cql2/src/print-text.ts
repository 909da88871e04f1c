import type { Cql2Node, Geometry, IntervalBound, Position } from './ast.js';
import { reservedWords } from './keywords.js';

// Binding strength, loosest first; a child binding looser than its place needs parentheses.
const OR = 1;
const AND = 2;
const NOT = 3;
const PREDICATE = 4;
const ADDITIVE = 5;
const MULTIPLICATIVE = 6;
const POWER = 7;
const PRIMARY = 8;

const strengthOfKind: Partial<Record<Cql2Node['kind'], number>> = {
  or: OR,
  and: AND,
  not: NOT,
  comparison: PREDICATE,
  like: PREDICATE,
  between: PREDICATE,
  in: PREDICATE,
  isNull: PREDICATE,
};

function strength(node: Cql2Node): number {
  if (node.kind !== 'arithmetic') return strengthOfKind[node.kind] ?? PRIMARY;
  if (node.op === '+' || node.op === '-') return ADDITIVE;
  return node.op === '^' ? POWER : MULTIPLICATIVE;
}

/** CQL2 text for a tree; `parseCql2Text(printCql2Text(node))` gives the same tree back. */
export function printCql2Text(node: Cql2Node): string {
  return print(node, OR);
}

function print(node: Cql2Node, place: number): string {
  const text = printBare(node);
  return strength(node) < place ? `(${text})` : text;
}

const identifier = /^[\p{L}:_][\p{L}\p{N}\p{M}:_.\u203F\u2040]*$/u;

export function printPropertyName(name: string): string {
  if (identifier.test(name) && !reservedWords.has(name.toUpperCase())) return name;
  return `"${name.replaceAll('"', '""')}"`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function printNumber(value: number): string {
  return String(value);
}

function printBare(node: Cql2Node): string {
  switch (node.kind) {
    case 'string':
      return quote(node.value);
    case 'number':
      return printNumber(node.value);
    case 'boolean':
      return node.value ? 'TRUE' : 'FALSE';
    case 'property':
      return printPropertyName(node.name);
    case 'timestamp':
      return `TIMESTAMP(${quote(node.value)})`;
    case 'date':
      return `DATE(${quote(node.value)})`;
    case 'unbounded':
      return "'..'";
    case 'interval':
      return `INTERVAL(${printBound(node.start)}, ${printBound(node.end)})`;
    case 'geometry':
      return printGeometry(node.geometry);
    case 'bbox':
      return `BBOX(${node.values.map(printNumber).join(', ')})`;
    case 'array':
      return `(${node.items.map((item) => print(item, ADDITIVE)).join(', ')})`;
    case 'function':
      return `${printPropertyName(node.name)}(${node.args.map((arg) => print(arg, OR)).join(', ')})`;
    case 'casei':
    case 'accenti':
      return `${node.kind.toUpperCase()}(${print(node.arg, ADDITIVE)})`;
    case 'arithmetic': {
      const level = strength(node);
      const [leftPlace, rightPlace] = node.op === '^' ? [PRIMARY, POWER] : [level, level + 1];
      const op = node.op === 'div' ? 'DIV' : node.op;
      return `${print(node.left, leftPlace)} ${op} ${print(node.right, rightPlace)}`;
    }
    case 'and':
    case 'or':
      return node.args
        .map((arg) => print(arg, node.kind === 'or' ? AND : NOT))
        .join(` ${node.kind.toUpperCase()} `);
    case 'not':
      return printNegated(node.arg) ?? `NOT ${print(node.arg, NOT)}`;
    case 'comparison':
      return `${print(node.left, ADDITIVE)} ${node.op} ${print(node.right, ADDITIVE)}`;
    case 'like':
      return `${print(node.value, ADDITIVE)} LIKE ${printBare(node.pattern)}`;
    case 'between':
      return `${print(node.value, ADDITIVE)} BETWEEN ${print(node.low, ADDITIVE)} AND ${print(node.high, ADDITIVE)}`;
    case 'in':
      return `${print(node.value, ADDITIVE)} IN (${node.list.map((item) => print(item, ADDITIVE)).join(', ')})`;
    case 'isNull':
      return `${print(node.arg, ADDITIVE)} IS NULL`;
    case 'spatial':
    case 'temporal':
    case 'arrayPredicate':
      return `${node.op.toUpperCase()}(${print(node.left, ADDITIVE)}, ${print(node.right, ADDITIVE)})`;
  }
}

/** `x IS NOT NULL`, `x NOT LIKE p`, …: the same tree as NOT (…), read more easily. */
function printNegated(node: Cql2Node): string | undefined {
  if (node.kind === 'isNull') return `${print(node.arg, ADDITIVE)} IS NOT NULL`;
  if (node.kind === 'like') return `${print(node.value, ADDITIVE)} NOT LIKE ${printBare(node.pattern)}`;
  if (node.kind === 'between') {
    return `${print(node.value, ADDITIVE)} NOT BETWEEN ${print(node.low, ADDITIVE)} AND ${print(node.high, ADDITIVE)}`;
  }
  if (node.kind === 'in') {
    return `${print(node.value, ADDITIVE)} NOT IN (${node.list.map((item) => print(item, ADDITIVE)).join(', ')})`;
  }
  return undefined;
}

function printBound(bound: IntervalBound): string {
  if (bound.kind === 'timestamp' || bound.kind === 'date') return quote(bound.value);
  return printBare(bound);
}

const positionText = (position: Position): string => position.map(printNumber).join(' ');
const listText = <T>(items: readonly T[], each: (item: T) => string): string =>
  `(${items.map(each).join(', ')})`;
const lineText = (line: readonly Position[]): string => listText(line, positionText);
const polygonText = (rings: readonly Position[][]): string => listText(rings, lineText);

export function printGeometry(geometry: Geometry): string {
  switch (geometry.type) {
    case 'Point':
      return `POINT(${positionText(geometry.coordinates)})`;
    case 'LineString':
      return `LINESTRING${lineText(geometry.coordinates)}`;
    case 'Polygon':
      return `POLYGON${polygonText(geometry.coordinates)}`;
    case 'MultiPoint':
      return `MULTIPOINT${listText(geometry.coordinates, (p) => `(${positionText(p)})`)}`;
    case 'MultiLineString':
      return `MULTILINESTRING${listText(geometry.coordinates, lineText)}`;
    case 'MultiPolygon':
      return `MULTIPOLYGON${listText(geometry.coordinates, polygonText)}`;
    case 'GeometryCollection':
      return `GEOMETRYCOLLECTION${listText(geometry.geometries, printGeometry)}`;
  }
}
