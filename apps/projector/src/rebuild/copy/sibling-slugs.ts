import { slugCandidate } from '@portal/domain';
import { derivesFrom, siblingGroupOf } from '@portal/read-model-portal-objects';
import type { FoldedObject } from './folded-object.js';

/**
 * The slugs live rows hold per sibling group, as the unique index `portal_objects_sibling_slug_in_org`
 * keys them (the parent, at root level the organization): what the SQL path's slug lookups find.
 */
export class SiblingSlugs {
  private readonly groups = new Map<string, Map<string, string>>();

  private group(key: string): Map<string, string> {
    let group = this.groups.get(key);
    if (!group) {
      group = new Map();
      this.groups.set(key, group);
    }
    return group;
  }

  /** The live row holding `slug` in the group, other than `exceptId`. */
  holder(key: string, slug: string, exceptId: string): string | null {
    const holder = this.groups.get(key)?.get(slug);
    return holder === undefined || holder === exceptId ? null : holder;
  }

  /** A live row takes its slug. */
  take(object: FoldedObject): void {
    this.group(siblingGroupOf(object.parentId, object.orgId)).set(object.slug, object.id);
  }

  /** A live row lets its slug go (tombstoned, moved away, renamed). */
  release(object: FoldedObject): void {
    const key = siblingGroupOf(object.parentId, object.orgId);
    const group = this.groups.get(key);
    if (group?.get(object.slug) === object.id) group.delete(object.slug);
  }

  /** `assignSlug`: the current slug when it still derives from `base` and is free, else the first free candidate. */
  assign(key: string, base: string, objectId: string, current: string | null): string {
    if (current !== null && derivesFrom(current, base) && this.holder(key, current, objectId) === null) {
      return current;
    }
    for (let n = 1; ; n += 1) {
      const candidate = slugCandidate(base, n);
      if (this.holder(key, candidate, objectId) === null) return candidate;
    }
  }
}
