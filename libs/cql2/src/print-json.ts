import type { Cql2Node, IntervalBound } from './ast.js';

/** CQL2 JSON for a tree; `parseCql2Json(printCql2Json(node))` gives the same tree back. */
export function printCql2Json(node: Cql2Node): unknown {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return node.value;
    case 'property':
      return { property: node.name };
    case 'timestamp':
      return { timestamp: node.value };
    case 'date':
      return { date: node.value };
    case 'unbounded':
      return '..';
    case 'interval':
      return { interval: [bound(node.start), bound(node.end)] };
    case 'geometry':
      return node.geometry;
    case 'bbox':
      return { bbox: node.values };
    case 'array':
      return node.items.map(printCql2Json);
    case 'function':
      return { op: node.name, args: node.args.map(printCql2Json) };
    case 'casei':
    case 'accenti':
    case 'not':
      return { op: node.kind, args: [printCql2Json(node.arg)] };
    case 'isNull':
      return { op: 'isNull', args: [printCql2Json(node.arg)] };
    case 'and':
    case 'or':
      return { op: node.kind, args: node.args.map(printCql2Json) };
    case 'comparison':
    case 'arithmetic':
    case 'spatial':
    case 'temporal':
    case 'arrayPredicate':
      return { op: node.op, args: [printCql2Json(node.left), printCql2Json(node.right)] };
    case 'like':
      return { op: 'like', args: [printCql2Json(node.value), printCql2Json(node.pattern)] };
    case 'between':
      return {
        op: 'between',
        args: [printCql2Json(node.value), printCql2Json(node.low), printCql2Json(node.high)],
      };
    case 'in':
      return { op: 'in', args: [printCql2Json(node.value), node.list.map(printCql2Json)] };
  }
}

function bound(node: IntervalBound): unknown {
  if (node.kind === 'timestamp' || node.kind === 'date') return node.value;
  return printCql2Json(node);
}
