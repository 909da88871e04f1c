import { readdirSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/** The dashboards and alert rules shipped in deploy/, as operators load them. */
export const MONITORING_DIR = new URL('../../deploy/monitoring/', import.meta.url);

export interface AlertRule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

export interface RuleFile {
  readonly groups: readonly { readonly name: string; readonly rules: readonly AlertRule[] }[];
}

export interface DashboardQuery {
  readonly panel: string;
  readonly expr: string;
}

export function ruleFiles(): { readonly file: string; readonly rules: RuleFile }[] {
  return readdirSync(MONITORING_DIR)
    .filter((file) => file.endsWith('.rules.yaml'))
    .map((file) => ({
      file,
      rules: parseYaml(readFileSync(new URL(file, MONITORING_DIR), 'utf8')) as RuleFile,
    }));
}

export function dashboards(): { readonly file: string; readonly dashboard: Record<string, unknown> }[] {
  return readdirSync(MONITORING_DIR)
    .filter((file) => file.endsWith('.dashboard.json'))
    .map((file) => ({
      file,
      dashboard: JSON.parse(readFileSync(new URL(file, MONITORING_DIR), 'utf8')) as Record<string, unknown>,
    }));
}

interface Panel {
  readonly id?: number;
  readonly title?: string;
  readonly type?: string;
  readonly targets?: readonly { readonly expr?: string }[];
  readonly panels?: readonly Panel[];
}

/** Every panel, rows' nested panels included. */
export function panelsOf(dashboard: Record<string, unknown>): Panel[] {
  const walk = (panels: readonly Panel[]): Panel[] =>
    panels.flatMap((panel) => [panel, ...walk(panel.panels ?? [])]);
  return walk((dashboard['panels'] as Panel[] | undefined) ?? []);
}

/** Every query of every dashboard and rule: what must parse and name metrics the processes expose. */
export function allQueries(): DashboardQuery[] {
  const queries: DashboardQuery[] = [];
  for (const { file, dashboard } of dashboards()) {
    for (const panel of panelsOf(dashboard)) {
      for (const target of panel.targets ?? []) {
        if (target.expr) queries.push({ panel: `${file}: ${panel.title ?? '?'}`, expr: target.expr });
      }
    }
  }
  for (const { file, rules } of ruleFiles()) {
    for (const group of rules.groups) {
      for (const rule of group.rules) {
        queries.push({ panel: `${file}: ${rule.alert ?? rule.record ?? '?'}`, expr: rule.expr });
      }
    }
  }
  return queries;
}
