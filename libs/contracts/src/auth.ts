import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';
import { displayNameSchema, emailSchema, passwordSchema, roleSchema } from './identity-fields.js';
import { strictObject } from './messages.js';
import { organizationMembershipSchema } from './organizations.js';

const body = 'a JSON object (the request body)';

/** `POST /api/auth/sign-up/email`. */
export const signUpBodySchema = strictObject(
  { email: emailSchema, password: passwordSchema, name: displayNameSchema },
  body,
);
export type SignUpBody = z.infer<typeof signUpBodySchema>;

/** `POST /api/auth/sign-in/email`. Any password is accepted here: a wrong one is a 401, not a 400. */
export const signInBodySchema = strictObject(
  {
    email: emailSchema,
    password: z
      .string({ error: 'is required' })
      .min(1, { error: 'is required' })
      .max(1024, { error: 'must be at most 1024 characters' }),
  },
  body,
);
export type SignInBody = z.infer<typeof signInBodySchema>;

export const userSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const credentialKinds = ['anonymous', 'session', 'jwt', 'api-key'] as const;

export const sessionSchema = z.object({
  id: idSchema.meta({ description: 'Public id of the session (the `sid` of its JWTs); never the cookie.' }),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
  activeOrganizationId: idSchema,
});
export type Session = z.infer<typeof sessionSchema>;

/**
 * `GET /api/auth/get-session`, and the answer of sign-up, sign-in and set-active. Every field is null
 * for an anonymous caller; `session` is null for an API key; `csrfToken` is given to cookie sessions
 * only, which must send it as `X-CSRF-Token` on every write.
 */
export const sessionViewSchema = z.object({
  credential: z.enum(credentialKinds),
  user: userSchema.nullable(),
  session: sessionSchema.nullable(),
  activeOrganization: organizationMembershipSchema.nullable().meta({
    description: 'The organization the caller acts in, with their current role; null when not a member.',
  }),
  csrfToken: z.string().nullable(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** `GET|POST /api/auth/token`: a short-lived JWT for `Authorization: Bearer`. */
export const tokenSchema = z.object({
  token: z.string().meta({ description: 'HS256 JWT with `sub`, `org`, `role`, `sid`, `iss`, `aud`, `exp`.' }),
  expiresAt: timestampSchema,
});
export type Token = z.infer<typeof tokenSchema>;

export const signedOutSchema = z.object({ success: z.literal(true) });

/** `GET /api/v1/users/me`. */
export const currentUserSchema = z.object({
  user: userSchema.extend({ createdAt: timestampSchema.nullable() }),
  activeOrganization: organizationMembershipSchema.nullable(),
  memberships: z.array(organizationMembershipSchema),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** `GET /api/v1/protected`. */
export const protectedSchema = z.object({
  message: z.string(),
  userId: idSchema,
  organizationId: idSchema.nullable(),
  role: roleSchema.nullable(),
});
