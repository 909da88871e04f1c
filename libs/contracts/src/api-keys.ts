import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';
import { displayNameSchema, roleSchema } from './identity-fields.js';
import { strictObject, uuid } from './messages.js';

const body = 'a JSON object (the request body)';

/** Invented bound: an API key lives at most a year; without `expiresInDays` it lives until revoked. */
export const MAX_API_KEY_DAYS = 365;

/** `POST /api/auth/api-key/create`: a key of the active organization, acting as its creator. */
export const createApiKeyBodySchema = strictObject(
  {
    name: displayNameSchema,
    role: roleSchema.meta({ description: "At most the creator's role." }),
    expiresInDays: z
      .int({ error: `must be an integer from 1 to ${MAX_API_KEY_DAYS}` })
      .min(1, { error: `must be an integer from 1 to ${MAX_API_KEY_DAYS}` })
      .max(MAX_API_KEY_DAYS, { error: `must be an integer from 1 to ${MAX_API_KEY_DAYS}` })
      .exactOptional(),
  },
  body,
);
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export const apiKeySchema = z.object({
  id: idSchema,
  organizationId: idSchema,
  name: z.string(),
  role: roleSchema,
  prefix: z.string().meta({ description: 'The first characters of the key, to tell keys apart.' }),
  createdBy: idSchema,
  createdAt: timestampSchema,
  expiresAt: timestampSchema.nullable(),
  revokedAt: timestampSchema.nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of create: the only time the key itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().meta({ description: 'Send as `Authorization: Bearer pcs_…`. Shown this once.' }),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });

export const revokeApiKeyBodySchema = strictObject({ keyId: uuid() }, body);
