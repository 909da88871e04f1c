import { z } from 'zod';
import { findUnstorableJsonText, isStorableText, UNSTORABLE_TEXT_MESSAGE } from './storable-text.js';

/**
 * Schema builders that carry human-readable messages, so a 400 body reads
 * `title: must be at most 140 characters` instead of zod's default wording.
 * `describeZodError` prefixes each message with the field's path.
 */

function plural(count: number, unit: string, units = `${unit}s`): string {
  return `${count} ${count === 1 ? unit : units}`;
}

/** A missing field says "is required"; a present field of the wrong shape says what it must be. */
export function expected(what: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`);
}

/** A string of `min`..`max` UTF-16 code units (JavaScript's `length`) that PostgreSQL can store. */
export function boundedText(min: number, max: number) {
  return z
    .string({ error: expected('a string') })
    .min(min, { error: `must be at least ${plural(min, 'character')}` })
    .max(max, { error: `must be at most ${plural(max, 'character')}` })
    .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE });
}

/** An array of at most `max` elements (and at least `min`), named `unit` (plural `units`) in messages. */
export function boundedArray<T extends z.ZodType>(
  item: T,
  bounds: { min?: number; max: number; unit: string; units?: string },
) {
  const { min = 0, max, unit, units } = bounds;
  const array = z
    .array(item, { error: expected('an array') })
    .max(max, { error: `must have at most ${plural(max, unit, units)}` });
  return min > 0 ? array.min(min, { error: `must have at least ${plural(min, unit, units)}` }) : array;
}

/** Any 8-4-4-4-12 hexadecimal id: ids from other systems need not be RFC 9562 versions. */
export function uuid() {
  return z.guid({ error: expected('a UUID') });
}

/**
 * Invented bound: how deep free-form JSON (`linkJson`, `properties`) may nest. JSON.stringify recurses
 * (in the event store) and overflows the stack near 5,000 levels, which a 1 MiB body of brackets reaches.
 */
export const MAX_JSON_DEPTH = 32;

/** True when objects and arrays nest deeper than `max`; a stack of pending values, not recursion. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > max) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}

/**
 * A JSON object with string keys: never an array, string, number or null. Every key and string value
 * at any depth must be storable; only the first offender is reported, so a body full of them cannot
 * produce an enormous 400.
 */
export function jsonObject() {
  return z.record(z.string(), z.unknown(), { error: expected('a JSON object') }).superRefine((value, ctx) => {
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      ctx.addIssue({
        code: 'custom',
        message: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
        // Later checks (a size limit that serialises) must not see an unbounded depth.
        continue: false,
      });
      return;
    }
    const found = findUnstorableJsonText(value);
    if (found === undefined) return;
    ctx.addIssue({
      code: 'custom',
      path: found.path,
      message: found.inKey ? `key ${UNSTORABLE_TEXT_MESSAGE}` : UNSTORABLE_TEXT_MESSAGE,
    });
  });
}

/** Request objects reject keys they do not know, so a typo fails loudly instead of being dropped. */
export function strictObject<Shape extends z.ZodRawShape>(shape: Shape, what = 'a JSON object') {
  return z.strictObject(shape, { error: expected(what) });
}
