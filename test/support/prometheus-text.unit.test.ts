import { Counter, Histogram, Registry } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { ExpositionError, namesIn, parseExposition, valueOf } from './prometheus-text.js';

describe('the exposition reader', () => {
  it('reads what prom-client writes: families, labels with escapes, histogram series', async () => {
    const registry = new Registry();
    const counter = new Counter({
      name: 't_total',
      help: 'a counter',
      labelNames: ['path'],
      registers: [registry],
    });
    counter.inc({ path: 'a "quoted" \\ back\nslash' }, 2);
    const histogram = new Histogram({
      name: 't_seconds',
      help: 'h',
      buckets: [0.1, 1],
      registers: [registry],
    });
    histogram.observe(0.5);
    histogram.observe(3);

    const families = parseExposition(await registry.metrics());
    expect(families.get('t_total')?.type).toBe('counter');
    expect(valueOf(families, 't_total', { path: 'a "quoted" \\ back\nslash' })).toBe(2);
    expect(valueOf(families, 't_seconds_bucket', { le: '1' })).toBe(1);
    expect(valueOf(families, 't_seconds_count')).toBe(2);
    expect(namesIn(families)).toEqual(
      new Set(['t_total', 't_seconds', 't_seconds_bucket', 't_seconds_sum', 't_seconds_count']),
    );
  });

  it('reads the special values in any case, as Prometheus does (prom-client writes Nan)', () => {
    const families = parseExposition('# TYPE g gauge\ng{a="1"} Nan\ng{a="2"} +inf\ng{a="3"} -Inf\n');
    expect(valueOf(families, 'g', { a: '1' })).toBeNaN();
    expect(valueOf(families, 'g', { a: '2' })).toBe(Number.POSITIVE_INFINITY);
    expect(valueOf(families, 'g', { a: '3' })).toBe(Number.NEGATIVE_INFINITY);
  });

  it('refuses what a Prometheus server would not take', () => {
    const typed = '# TYPE h histogram\n';
    const refused = [
      'orphan 1\n',
      '# TYPE c counter\nc 1',
      '# TYPE c counter\nc{a="1",a="2"} 1\n',
      '# TYPE c counter\nc{1a="x"} 1\n',
      '# TYPE c counter\nc one\n',
      '# TYPE c counter\nc -1\n',
      '# TYPE c gauges\n',
      `${typed}h_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n`,
      `${typed}h_bucket{le="1"} 1\nh_sum 1\nh_count 1\n`,
      `${typed}h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n`,
    ];
    for (const text of refused) expect(() => parseExposition(text), text).toThrow(ExpositionError);
  });
});
