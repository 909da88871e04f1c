import type { z } from 'zod';
import { describeZodError, type ZodErrorDescription } from '../describe-zod-error.js';

/** Parses a value that must be rejected and returns the 400 description the API would send. */
export function rejectionOf(schema: z.ZodType, value: unknown): ZodErrorDescription {
  const result = schema.safeParse(value);
  if (result.success) throw new Error(`expected a rejection, but parsed: ${JSON.stringify(result.data)}`);
  return describeZodError(result.error);
}

/** Parses a value that must be accepted and returns the parsed data. */
export function acceptanceOf<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`expected acceptance, got: ${describeZodError(result.error).message}`);
  return result.data;
}
