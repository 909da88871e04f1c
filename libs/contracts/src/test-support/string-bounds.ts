import { expect, it } from 'vitest';
import type { z } from 'zod';
import { acceptanceOf, rejectionOf } from './parse.js';
import { itRefusesUnstorableText } from './storable-text.js';

interface StringField {
  /** Path as `describeZodError` prints it, e.g. `links[0].href`. */
  path: string;
  max: number;
  /** A valid body whose field at `path` holds `value`. */
  bodyWith: (value: string) => unknown;
}

/**
 * Checks 0, 1, max and max+1 characters: both ends accepted, both outsides rejected with the bound named.
 * Every bounded request string is also stored, so it must refuse what PostgreSQL cannot store.
 */
export function itEnforcesStringBounds(schema: z.ZodType, field: StringField): void {
  const { path, max, bodyWith } = field;

  it(`${path}: rejects 0 characters`, () => {
    expect(rejectionOf(schema, bodyWith('')).message).toBe(`${path}: must be at least 1 character`);
  });

  it(`${path}: accepts 1 character`, () => {
    acceptanceOf(schema, bodyWith('a'));
  });

  it(`${path}: accepts ${max} characters`, () => {
    acceptanceOf(schema, bodyWith('a'.repeat(max)));
  });

  it(`${path}: rejects ${max + 1} characters`, () => {
    expect(rejectionOf(schema, bodyWith('a'.repeat(max + 1))).message).toBe(
      `${path}: must be at most ${max} characters`,
    );
  });

  itRefusesUnstorableText(schema, { path, bodyWith });
}
