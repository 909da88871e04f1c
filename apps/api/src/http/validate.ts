import type { z } from 'zod';
import { describeZodError } from '@portal/contracts';
import { HttpProblem } from './problem.js';

/** Parses request input with a contract schema; a failure answers 400 naming each field and its bound. */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  where: string,
): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const described = describeZodError(parsed.error);
  throw new HttpProblem(
    400,
    `invalid ${where}: ${described.message}`,
    'VALIDATION_FAILED',
    described.details,
  );
}
