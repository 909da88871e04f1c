import { parser } from '@prometheus-io/lezer-promql';

export interface ParsedQuery {
  /** Where the grammar could not go on, as character offsets; empty for a valid query. */
  readonly errors: readonly number[];
  /** Every metric name a vector selector names (`foo{…}`, `foo[5m]`). */
  readonly metricNames: readonly string[];
}

/**
 * Parses one PromQL expression with Prometheus's own grammar (the one its web UI uses). Grafana's
 * `$__rate_interval` and `$var` are replaced by a duration and a plain value first, as Grafana does
 * before it sends the query.
 */
export function parsePromQl(expression: string): ParsedQuery {
  const query = expression
    .replace(/\$__(rate_)?interval/g, '5m')
    .replace(/\$__range/g, '1h')
    .replace(/\$\{?\w+\}?/g, 'x');
  const tree = parser.parse(query);
  const errors: number[] = [];
  const metricNames: string[] = [];
  const cursor = tree.cursor();
  do {
    if (cursor.type.isError) errors.push(cursor.from);
    if (cursor.name === 'VectorSelector') {
      const selector = cursor.node.getChild('Identifier');
      if (selector) metricNames.push(query.slice(selector.from, selector.to));
    }
  } while (cursor.next());
  return { errors, metricNames };
}
