/**
 * The positional parameters of one SQL statement built from optional parts: each value added answers
 * the placeholder to write in its place, so the parts never count `$n` themselves.
 */
export class QueryParams {
  readonly values: unknown[] = [];

  /** `$n` (with a cast when given) for a value bound as a parameter, never pasted into the text. */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return `$${this.values.length}${cast === undefined ? '' : `::${cast}`}`;
  }
}
