import { MAX_SLUG_LENGTH } from '@portal/domain';
import { derivesFrom } from '@portal/read-model-portal-objects';

/** The longest base whose candidates (`base-2` … `base-999999999`) are never cut short. */
const LONGEST_UNCUT_BASE = MAX_SLUG_LENGTH - '-999999999'.length;

/** `alpha-2` → `alpha`; `null` for a slug without a candidate number (`alpha`, `alpha-1`, `alpha-01`). */
function stemOf(slug: string): string | null {
  const match = /^(.+)-([1-9]\d{0,8})$/.exec(slug);
  return match?.[1] !== undefined && match[2] !== '1' ? match[1] : null;
}

/**
 * The slug bases taken in one sibling group by the creates of a run. Two bases clash when either is one
 * of the other's candidates (`alpha` and `alpha`, `alpha` and `alpha-2`): in event order the later one
 * could take a slug the earlier one would have had, or the reverse, so they may not share a run. Short
 * bases are compared by set lookups (a candidate of a short base is `base-n` exactly); a long base's
 * candidates may cut it short, so it is compared with every base of the group by `derivesFrom`.
 */
export class SlugFamilies {
  private readonly bases = new Set<string>();
  /** The stems of the bases that look like candidates (`alpha` for `alpha-2`). */
  private readonly stems = new Set<string>();
  /** Bases whose candidates may be cut short. */
  private readonly long: string[] = [];

  clashes(base: string): boolean {
    if (this.bases.has(base) || this.stems.has(base)) return true;
    const stem = stemOf(base);
    if (stem !== null && this.bases.has(stem)) return true;
    if (this.long.some((other) => derivesFrom(base, other) || derivesFrom(other, base))) return true;
    if (base.length <= LONGEST_UNCUT_BASE) return false;
    return [...this.bases].some((other) => derivesFrom(base, other) || derivesFrom(other, base));
  }

  add(base: string): void {
    this.bases.add(base);
    const stem = stemOf(base);
    if (stem !== null) this.stems.add(stem);
    if (base.length > LONGEST_UNCUT_BASE) this.long.push(base);
  }
}
