import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { allQueries, dashboards, panelsOf, ruleFiles, type RuleFile } from './support/monitoring-files.js';
import { parsePromQl } from './support/promql.js';

/** Prometheus durations as rule files accept them: `30s`, `5m`, `1h30m`. */
const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;
const SEVERITIES = new Set(['critical', 'warning', 'info']);

describe('the PromQL reader the checks rely on', () => {
  it('names the metrics of a query and accepts what Prometheus accepts', () => {
    const parsed = parsePromQl(
      'sum by (route) (rate(a_total{x=~"5.."}[$__rate_interval])) / on() group_left sum(rate(b_count[5m])) > 0.05',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.metricNames).toEqual(['a_total', 'b_count']);
  });

  it('finds what Prometheus would refuse', () => {
    for (const broken of [
      'rate(a_total[5m]',
      'sum by route (a)',
      'a_total{x="1"',
      'max(a) >',
      'rate(a_total[5x])',
    ]) {
      expect(parsePromQl(broken).errors, broken).not.toEqual([]);
    }
  });
});

describe('dashboards and alert rules in deploy/monitoring', () => {
  it('hold queries, every one valid PromQL', () => {
    const queries = allQueries();
    expect(queries.length).toBeGreaterThan(20);
    const invalid = queries.filter(({ expr }) => parsePromQl(expr).errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it('alert on projection lag, a halted projector, dead letters, failed uploads and 5xx answers', () => {
    const rules = ruleFiles().flatMap(({ rules: file }) => file.groups.flatMap((group) => group.rules));
    const queried = (alert: string): string => rules.find((rule) => rule.alert === alert)?.expr ?? '';
    expect(queried('PortalProjectionLagging')).toContain('portal_projector_lag_seconds');
    expect(queried('PortalProjectorHalted')).toContain('portal_projector_halted');
    expect(queried('PortalDeadLetters')).toContain('portal_projector_dead_letters');
    expect(queried('PortalUploadFailures')).toContain('portal_upload_completions_total{outcome="failed"}');
    expect(queried('PortalHighServerErrorRate')).toContain('status_code=~"5.."');
  });

  it('give every alert a unique name, a severity, a summary and a valid `for`', () => {
    const rules = ruleFiles().flatMap(({ rules: file }) => file.groups.flatMap((group) => group.rules));
    const names = rules.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of rules) {
      expect(rule.alert, rule.expr).toMatch(/^Portal[A-Z][A-Za-z]+$/);
      expect(SEVERITIES.has(rule.labels?.['severity'] ?? ''), rule.alert).toBe(true);
      expect(rule.annotations?.['summary'], rule.alert).toBeTruthy();
      if (rule.for !== undefined) expect(rule.for).toMatch(DURATION);
    }
  });

  it('lay the dashboard out with unique panel ids, each query on the chosen Prometheus', () => {
    const [only, ...others] = dashboards();
    expect(others).toEqual([]);
    const dashboard = only?.dashboard ?? {};
    expect(dashboard['uid']).toBe('portal-catalog-service');
    const panels = panelsOf(dashboard);
    const ids = panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of panels.filter((candidate) => candidate.type !== 'row')) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      expect(JSON.stringify(panel)).toContain('"uid":"${datasource}"');
    }
  });

  it('ship the same rules to the Prometheus Operator as to a plain Prometheus', () => {
    const operatorRule = parseYaml(
      readFileSync(new URL('../deploy/kubernetes/monitoring/prometheus-rule.yaml', import.meta.url), 'utf8'),
    ) as { kind: string; spec: RuleFile };
    expect(operatorRule.kind).toBe('PrometheusRule');
    const [plain] = ruleFiles();
    expect(operatorRule.spec.groups).toEqual(plain?.rules.groups);
  });
});
