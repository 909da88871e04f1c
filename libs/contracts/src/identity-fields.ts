import { z } from 'zod';
import { boundedText, expected } from './messages.js';

/** Roles within an organization, weakest first (the domain's `roles`). */
export const organizationRoles = ['viewer', 'editor', 'admin', 'owner'] as const;

export const roleSchema = z
  .enum(organizationRoles, { error: expected(`one of ${organizationRoles.join(', ')}`) })
  .meta({ description: 'Role within an organization: viewer < editor < admin < owner.' });

/** Invented bound: RFC 5321 allows 254 characters in a forward path. */
export const MAX_EMAIL_LENGTH = 254;

export const emailSchema = z
  .email({ error: expected('an email address') })
  .max(MAX_EMAIL_LENGTH, { error: `must be at most ${MAX_EMAIL_LENGTH} characters` })
  .meta({ description: 'Compared without regard to case.' });

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const passwordSchema = boundedText(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH).meta({
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
});

/** Names of people, organizations and API keys. */
export const displayNameSchema = boundedText(1, 100).refine(
  // An empty one already fails the length check; one message per problem.
  (value) => value.length === 0 || value.trim().length > 0,
  { error: 'must not be blank' },
);

/** An organization's handle: lower-case letters, digits and single hyphens. */
export const organizationSlugSchema = z
  .string({ error: expected('a string') })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: 'must be lower-case letters and digits, words separated by single hyphens',
  })
  .max(63, { error: 'must be at most 63 characters' })
  .meta({ description: 'Unique among organizations.' });
