import { isPredicate } from './ast.js';
import type { Cql2Node } from './ast.js';
import { Cql2Error } from './errors.js';
import { bboxProblem, geometryProblem } from './geometry.js';
import { MAX_CQL2_COORDINATES, MAX_CQL2_NODES } from './limits.js';
import { dateMicros, isSupportedNumber, timestampMicros } from './literals.js';

// Which node may stand where: the grammar's expression classes, checked the same way for both
// encodings so that whatever one accepts, the other can express.
const is = (node: Cql2Node, ...kinds: Cql2Node['kind'][]): boolean => kinds.includes(node.kind);
const isNumeric = (n: Cql2Node): boolean => is(n, 'number', 'property', 'function', 'arithmetic');
const isCharacter = (n: Cql2Node): boolean => is(n, 'string', 'property', 'function', 'casei', 'accenti');
const isScalar = (n: Cql2Node): boolean =>
  isNumeric(n) || isCharacter(n) || is(n, 'boolean', 'timestamp', 'date');
const isPattern = (n: Cql2Node): boolean =>
  n.kind === 'string' || ((n.kind === 'casei' || n.kind === 'accenti') && isPattern(n.arg));
export const isBooleanOperand = (n: Cql2Node): boolean => isPredicate(n) || is(n, 'boolean', 'function');
const isGeometry = (n: Cql2Node): boolean => is(n, 'geometry', 'bbox', 'property', 'function');
const isTemporal = (n: Cql2Node): boolean => is(n, 'timestamp', 'date', 'interval', 'property', 'function');
const isArrayExpression = (n: Cql2Node): boolean => is(n, 'array', 'property', 'function');
const isArrayElement = (n: Cql2Node): boolean =>
  is(n, 'string', 'number', 'boolean', 'timestamp', 'date', 'interval', 'geometry', 'bbox', 'array');

/** Why `node`'s own children or literal value do not fit, or undefined. */
export function shapeProblem(node: Cql2Node): string | undefined {
  switch (node.kind) {
    case 'and':
    case 'or':
      if (node.args.length < 2) return `${node.kind.toUpperCase()} needs at least two operands`;
      return node.args.every(isBooleanOperand)
        ? undefined
        : `the operands of ${node.kind.toUpperCase()} must be predicates`;
    case 'not':
      return isBooleanOperand(node.arg) ? undefined : 'the operand of NOT must be a predicate';
    case 'comparison':
      return isScalar(node.left) && isScalar(node.right)
        ? undefined
        : `the operands of ${node.op} must be scalar values (strings, numbers, booleans, instants, properties)`;
    case 'like':
      if (!isCharacter(node.value)) return 'LIKE applies to a character expression';
      return isPattern(node.pattern)
        ? undefined
        : 'the pattern of LIKE must be a string literal (optionally in CASEI/ACCENTI)';
    case 'between':
      return [node.value, node.low, node.high].every(isNumeric)
        ? undefined
        : 'BETWEEN compares numeric expressions';
    case 'in':
      if (node.list.length === 0) return 'IN needs at least one value';
      return isScalar(node.value) && node.list.every(isScalar) ? undefined : 'IN compares scalar values';
    case 'isNull':
      return isPredicate(node.arg) || is(node.arg, 'unbounded', 'array')
        ? 'IS NULL applies to a value'
        : undefined;
    case 'spatial':
      return isGeometry(node.left) && isGeometry(node.right)
        ? undefined
        : `${node.op.toUpperCase()} compares geometries, bboxes or properties`;
    case 'temporal':
      return isTemporal(node.left) && isTemporal(node.right)
        ? undefined
        : `${node.op.toUpperCase()} compares instants, intervals or properties`;
    case 'arrayPredicate':
      return isArrayExpression(node.left) && isArrayExpression(node.right)
        ? undefined
        : `${node.op.toUpperCase()} compares arrays or properties`;
    case 'arithmetic':
      return isNumeric(node.left) && isNumeric(node.right)
        ? undefined
        : `the operands of ${node.op} must be numeric`;
    case 'casei':
    case 'accenti':
      return isCharacter(node.arg)
        ? undefined
        : `${node.kind.toUpperCase()} applies to a character expression`;
    case 'array':
      return node.items.every(isArrayElement)
        ? undefined
        : 'array elements must be literals (strings, numbers, booleans, instants, intervals, geometries) or arrays';
    case 'function':
      return node.args.every((arg) => !is(arg, 'unbounded', 'array'))
        ? undefined
        : `bad argument to ${node.name}`;
    case 'number':
      return isSupportedNumber(node.value)
        ? undefined
        : `the number ${node.value} is out of the supported range`;
    case 'timestamp':
      return timestampMicros(node.value) === undefined
        ? `invalid timestamp '${node.value}' (expected YYYY-MM-DDTHH:MM:SS[.ffffff]Z)`
        : undefined;
    case 'date':
      return dateMicros(node.value) === undefined
        ? `invalid date '${node.value}' (expected YYYY-MM-DD)`
        : undefined;
    case 'bbox':
      return bboxProblem(node.values);
    case 'geometry':
      return geometryProblem(node.geometry, { positions: 0 });
    case 'string':
    case 'boolean':
    case 'property':
    case 'unbounded':
    case 'interval':
      return undefined;
  }
}

export function children(node: Cql2Node): Cql2Node[] {
  switch (node.kind) {
    case 'and':
    case 'or':
    case 'function':
      return node.args;
    case 'not':
    case 'isNull':
    case 'casei':
    case 'accenti':
      return [node.arg];
    case 'comparison':
    case 'spatial':
    case 'temporal':
    case 'arrayPredicate':
    case 'arithmetic':
      return [node.left, node.right];
    case 'like':
      return [node.value, node.pattern];
    case 'between':
      return [node.value, node.low, node.high];
    case 'in':
      return [node.value, ...node.list];
    case 'interval':
      return [node.start, node.end];
    case 'array':
      return node.items;
    case 'string':
    case 'number':
    case 'boolean':
    case 'property':
    case 'timestamp':
    case 'date':
    case 'unbounded':
    case 'geometry':
    case 'bbox':
      return [];
  }
}

/** Refuses a tree over the node or coordinate limits (depth is bounded while parsing). */
export function checkSize(root: Cql2Node): void {
  let nodes = 0;
  const counter = { positions: 0 };
  const pending: Cql2Node[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    nodes += 1;
    if (nodes > MAX_CQL2_NODES) throw new Cql2Error(`the filter has more than ${MAX_CQL2_NODES} nodes`);
    if (node.kind === 'geometry') geometryProblem(node.geometry, counter);
    if (counter.positions > MAX_CQL2_COORDINATES) {
      throw new Cql2Error(`the filter's geometries have more than ${MAX_CQL2_COORDINATES} positions`);
    }
    pending.push(...children(node));
  }
}
