import { describeZodError } from '@portal/contracts';
import type { z } from 'zod';
import { ApiError } from '../api/client.js';

/** Messages per field path (`title`, `links[0].href`), and one for the form as a whole. */
export interface FormErrors {
  readonly fields: Readonly<Record<string, string>>;
  readonly form: string | null;
}

export const noErrors: FormErrors = { fields: {}, form: null };

function fromDetails(details: readonly { path: string; message: string }[], message: string): FormErrors {
  const fields: Record<string, string> = {};
  for (const detail of details) {
    if (detail.path !== '' && !(detail.path in fields)) fields[detail.path] = detail.message;
  }
  // Whatever no field shows is said for the form, so no refusal goes unsaid.
  const unplaced = details.filter((detail) => detail.path === '');
  const form =
    Object.keys(fields).length === 0 ? message : unplaced.map((detail) => detail.message).join('; ') || null;
  return { fields, form };
}

/**
 * Checks a body with the very schema the API parses it with, so the messages shown at the fields
 * are the API's own words (the same `describeZodError` builds its 400 answers).
 */
export function validate<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
):
  | { readonly ok: true; readonly data: z.output<Schema> }
  | { readonly ok: false; readonly errors: FormErrors } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const description = describeZodError(parsed.error);
  return { ok: false, errors: fromDetails(description.details, description.message) };
}

/** A refusal from the API: a 400's details go to their fields, anything else to the form. */
export function errorsOf(error: unknown): FormErrors {
  if (error instanceof ApiError) return fromDetails(error.details, error.message);
  return { fields: {}, form: error instanceof Error ? error.message : String(error) };
}
