import type { HistoryEntry, VisibilityValue } from '@portal/contracts';
import { visibilitySchema } from '@portal/contracts';

/**
 * The object's own visibility, read from its history: no read answers it (docs/identity.md keeps it
 * an access rule, not a field of the record). A create records the visibility it was given (absent
 * means `org`); a `VisibilityChanged` records `{from, to}`; the last one wins.
 */
export function currentVisibility(entries: readonly HistoryEntry[]): VisibilityValue {
  let visibility: VisibilityValue = 'org';
  for (const entry of entries) {
    if (entry.type === 'VisibilityChanged') {
      const to = visibilitySchema.safeParse(entry.change['to']);
      if (to.success) visibility = to.data;
    } else if (entry.revision === 0) {
      const given = visibilitySchema.safeParse(entry.change['visibility']);
      if (given.success) visibility = given.data;
    }
  }
  return visibility;
}
