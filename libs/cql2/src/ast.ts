/**
 * One abstract syntax tree for both CQL2 encodings: `parseCql2Text` and `parseCql2Json` build it, the
 * printers turn it back into either encoding, and the SQL translation and the in-memory evaluator read it.
 * Operator names are the lower-case names of the JSON encoding.
 */

export const comparisonOps = ['=', '<>', '<', '<=', '>', '>='] as const;
export type ComparisonOp = (typeof comparisonOps)[number];

export const arithmeticOps = ['+', '-', '*', '/', '%', 'div', '^'] as const;
export type ArithmeticOp = (typeof arithmeticOps)[number];

export const spatialOps = [
  's_intersects',
  's_equals',
  's_disjoint',
  's_touches',
  's_within',
  's_overlaps',
  's_crosses',
  's_contains',
] as const;
export type SpatialOp = (typeof spatialOps)[number];

export const temporalOps = [
  't_after',
  't_before',
  't_contains',
  't_disjoint',
  't_during',
  't_equals',
  't_finishedby',
  't_finishes',
  't_intersects',
  't_meets',
  't_metby',
  't_overlappedby',
  't_overlaps',
  't_startedby',
  't_starts',
] as const;
export type TemporalOp = (typeof temporalOps)[number];

export const arrayOps = ['a_equals', 'a_contains', 'a_containedby', 'a_overlaps'] as const;
export type ArrayOp = (typeof arrayOps)[number];

export type Position = readonly number[];

/** GeoJSON geometries (RFC 7946), the form geometry literals take in the tree. */
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] };

export interface StringLiteral {
  kind: 'string';
  value: string;
}
export interface NumberLiteral {
  kind: 'number';
  value: number;
}
export interface BooleanLiteral {
  kind: 'boolean';
  value: boolean;
}
export interface PropertyRef {
  kind: 'property';
  name: string;
}
/** `value` is the text as written: `YYYY-MM-DDTHH:MM:SS[.f]Z`. */
export interface TimestampLiteral {
  kind: 'timestamp';
  value: string;
}
/** `value` is the text as written: `YYYY-MM-DD`. */
export interface DateLiteral {
  kind: 'date';
  value: string;
}
/** The open end `'..'` of an interval. */
export interface Unbounded {
  kind: 'unbounded';
}
export type IntervalBound = TimestampLiteral | DateLiteral | Unbounded | PropertyRef | FunctionCall;
export interface IntervalLiteral {
  kind: 'interval';
  start: IntervalBound;
  end: IntervalBound;
}
export interface GeometryLiteral {
  kind: 'geometry';
  geometry: Geometry;
}
/** BBOX(west, south, east, north) or with elevations BBOX(west, south, min, east, north, max). */
export interface BboxLiteral {
  kind: 'bbox';
  values: number[];
}
export interface ArrayLiteral {
  kind: 'array';
  items: Cql2Node[];
}
export interface FunctionCall {
  kind: 'function';
  name: string;
  args: Cql2Node[];
}
export interface CaseInsensitive {
  kind: 'casei';
  arg: Cql2Node;
}
export interface AccentInsensitive {
  kind: 'accenti';
  arg: Cql2Node;
}
export interface Arithmetic {
  kind: 'arithmetic';
  op: ArithmeticOp;
  left: Cql2Node;
  right: Cql2Node;
}
export interface Logical {
  kind: 'and' | 'or';
  args: Cql2Node[];
}
export interface Not {
  kind: 'not';
  arg: Cql2Node;
}
export interface Comparison {
  kind: 'comparison';
  op: ComparisonOp;
  left: Cql2Node;
  right: Cql2Node;
}
export interface Like {
  kind: 'like';
  value: Cql2Node;
  pattern: Cql2Node;
}
export interface Between {
  kind: 'between';
  value: Cql2Node;
  low: Cql2Node;
  high: Cql2Node;
}
export interface In {
  kind: 'in';
  value: Cql2Node;
  list: Cql2Node[];
}
export interface IsNull {
  kind: 'isNull';
  arg: Cql2Node;
}
export interface SpatialPredicate {
  kind: 'spatial';
  op: SpatialOp;
  left: Cql2Node;
  right: Cql2Node;
}
export interface TemporalPredicate {
  kind: 'temporal';
  op: TemporalOp;
  left: Cql2Node;
  right: Cql2Node;
}
export interface ArrayPredicate {
  kind: 'arrayPredicate';
  op: ArrayOp;
  left: Cql2Node;
  right: Cql2Node;
}

export type Cql2Node =
  | StringLiteral
  | NumberLiteral
  | BooleanLiteral
  | PropertyRef
  | TimestampLiteral
  | DateLiteral
  | Unbounded
  | IntervalLiteral
  | GeometryLiteral
  | BboxLiteral
  | ArrayLiteral
  | FunctionCall
  | CaseInsensitive
  | AccentInsensitive
  | Arithmetic
  | Logical
  | Not
  | Comparison
  | Like
  | Between
  | In
  | IsNull
  | SpatialPredicate
  | TemporalPredicate
  | ArrayPredicate;

/** Nodes whose value is true, false or unknown. */
export type Cql2Predicate =
  | Logical
  | Not
  | Comparison
  | Like
  | Between
  | In
  | IsNull
  | SpatialPredicate
  | TemporalPredicate
  | ArrayPredicate;

const predicateKinds = new Set<Cql2Node['kind']>([
  'and',
  'or',
  'not',
  'comparison',
  'like',
  'between',
  'in',
  'isNull',
  'spatial',
  'temporal',
  'arrayPredicate',
]);

export function isPredicate(node: Cql2Node): node is Cql2Predicate {
  return predicateKinds.has(node.kind);
}
