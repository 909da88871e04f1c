import type { z } from 'zod';
import type { MessageDetail } from './common.js';

export interface ZodErrorDescription {
  /** Every failing field with its bound, e.g. `title: must be at most 140 characters; links: …`. */
  message: string;
  details: MessageDetail[];
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** `['links', 0, 'href']` → `links[0].href`; keys that are not identifiers are quoted. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && identifier.test(segment))
      text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

function detailsOf(issue: z.core.$ZodIssue): MessageDetail[] {
  if (issue.code === 'unrecognized_keys') {
    // One detail per unknown key, so a client sees exactly which field to rename or drop.
    return issue.keys.map((key) => ({
      path: formatIssuePath([...issue.path, key]),
      message: 'is not an allowed field',
    }));
  }
  return [{ path: formatIssuePath(issue.path), message: issue.message }];
}

/** Turns a zod error into the 400 body's message and details. */
export function describeZodError(error: z.ZodError): ZodErrorDescription {
  const details = error.issues.flatMap(detailsOf);
  const message = details.map((detail) =>
    detail.path === '' ? detail.message : `${detail.path}: ${detail.message}`,
  );
  return { message: message.length > 0 ? message.join('; ') : 'invalid input', details };
}
