import { z } from 'zod';
import { idSchema } from './common.js';
import { expected, strictObject, uuid } from './messages.js';

/** Who may see an object (docs/identity.md), narrowest first; as the domain's `visibilities`. */
const visibilityValues = ['private', 'org', 'public'] as const;
const principalTypes = ['user', 'organization'] as const;
const sharePermissions = ['viewer', 'editor'] as const;

export const visibilitySchema = z
  .enum(visibilityValues, { error: expected(`one of ${visibilityValues.join(', ')}`) })
  .meta({
    description:
      "`private`: the organization's admins and owners and the creator; `org`: every member of the organization; `public`: everyone, also anonymous callers. The narrowest on the path from the root level applies.",
  });
export type VisibilityValue = z.infer<typeof visibilitySchema>;

/** On create bodies: absent means `org`. */
export const createVisibilitySchema = visibilitySchema.exactOptional().meta({
  description: 'Who may see the new object; `org` when absent.',
});

/** `PUT /api/v1/portal/items/{id}/visibility`. */
export const changeVisibilityBodySchema = strictObject(
  { visibility: visibilitySchema },
  'a JSON object (the request body)',
);
export type ChangeVisibilityBody = z.infer<typeof changeVisibilityBodySchema>;

export const visibilityResultSchema = z.object({ id: idSchema, visibility: visibilitySchema });
export type VisibilityResult = z.infer<typeof visibilityResultSchema>;

export const principalTypeSchema = z.enum(principalTypes, {
  error: expected(`one of ${principalTypes.join(', ')}`),
});
export type PrincipalType = z.infer<typeof principalTypeSchema>;

export const sharePermissionSchema = z
  .enum(sharePermissions, { error: expected(`one of ${sharePermissions.join(', ')}`) })
  .meta({
    description:
      '`viewer` reads the object and everything below it; `editor` also changes them (for an organization: its editors, admins and owners).',
  });

export const sharePrincipalSchema = strictObject(
  {
    type: principalTypeSchema,
    id: uuid().meta({ description: 'Id of the user or the organization.' }),
  },
  'a JSON object',
);

/** `POST /api/v1/portal/items/{id}/shares`: a second share to the same principal replaces the first. */
export const shareBodySchema = strictObject(
  { principal: sharePrincipalSchema, permission: sharePermissionSchema },
  'a JSON object (the request body)',
);
export type ShareBody = z.infer<typeof shareBodySchema>;

export const shareSchema = z.object({
  principal: z.object({ type: principalTypeSchema, id: idSchema }),
  permission: sharePermissionSchema,
});
export type ShareRecord = z.infer<typeof shareSchema>;

export const shareListSchema = z.object({
  shares: z
    .array(shareSchema)
    .meta({ description: "The object's own shares, oldest first; shares of its ancestors apply too." }),
});
export type ShareList = z.infer<typeof shareListSchema>;

/** `DELETE /api/v1/portal/items/{id}/shares/{type}/{principalId}`. */
export const shareParamsSchema = z.object({
  id: idSchema,
  type: principalTypeSchema,
  principalId: uuid(),
});
export type ShareParams = z.infer<typeof shareParamsSchema>;
