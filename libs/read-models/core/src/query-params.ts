/**
 * The positional parameters of one SQL statement built from optional parts: each value added answers
 * the placeholder to write in its place, so the parts never count `$n` themselves.
 */
export class QueryParams {
  readonly values: unknown[] = [];
  private readonly shared = new Map<object, { readonly cast: string; readonly placeholder: string }>();

  /** `$n` (with a cast when given) for a value bound as a parameter, never pasted into the text. */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast === undefined ? '' : `::${cast}`}`;
  }

  /**
   * The same, but a value that several parts of one statement use (the caller's principals: every
   * visibility condition of a statement) is bound once and every part writes the same placeholder.
   * Known by identity: the same array object, not an equal one.
   */
  addShared(value: object, cast: string): string {
    const known = this.shared.get(value);
    if (known?.cast === cast) return known.placeholder;
    const placeholder = this.add(value, cast);
    this.shared.set(value, { cast, placeholder });
    return placeholder;
  }
}
