import type { FieldMode, FieldRule, FieldsSelection } from './fields-request.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const noRules: FieldRule = { mode: null, children: new Map() };

/**
 * `value` as the rules keep it: a field is kept when its own rule (or, without one, the nearest
 * enclosing rule) includes it; an object excluded as a whole still keeps the fields a more specific rule
 * includes (`-properties,+properties.datetime`: `properties` holds `datetime` alone). Arrays and scalars
 * are kept or dropped whole. `undefined`: nothing of it is kept.
 */
function keep(value: unknown, rule: FieldRule, mode: FieldMode): unknown {
  if (rule.children.size === 0 || !isObject(value)) return mode === 'include' ? value : undefined;
  const kept: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value)) {
    const childRule = rule.children.get(name) ?? noRules;
    const result = keep(child, childRule, childRule.mode ?? mode);
    if (result !== undefined) kept[name] = result;
  }
  return mode === 'include' || Object.keys(kept).length > 0 ? kept : undefined;
}

/** An item (or any STAC object) cut to the fields a request asked for. */
export function selectFields(
  item: Readonly<Record<string, unknown>>,
  selection: FieldsSelection,
): Record<string, unknown> {
  const kept = keep(item, selection.rules, selection.rest);
  return isObject(kept) ? kept : {};
}
