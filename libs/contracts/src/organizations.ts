import { z } from 'zod';
import { idSchema, timestampSchema } from './common.js';
import { displayNameSchema, emailSchema, organizationSlugSchema, roleSchema } from './identity-fields.js';
import { expected, strictObject, uuid } from './messages.js';

const body = 'a JSON object (the request body)';

/** An organization as one of its members sees it, with their role. */
export const organizationMembershipSchema = z.object({
  id: idSchema,
  name: z.string(),
  slug: z.string(),
  personal: z.boolean().meta({ description: 'The organization its owner got at sign-up.' }),
  role: roleSchema,
  createdAt: timestampSchema,
  joinedAt: timestampSchema,
});
export type OrganizationMembership = z.infer<typeof organizationMembershipSchema>;

export const organizationListSchema = z.object({
  items: z.array(organizationMembershipSchema),
  activeOrganizationId: idSchema.nullable(),
});

/** `POST /api/auth/organization/create`: the caller becomes its owner. */
export const createOrganizationBodySchema = strictObject(
  {
    name: displayNameSchema,
    slug: organizationSlugSchema
      .exactOptional()
      .meta({ description: 'Unique among organizations; derived from the name when absent.' }),
  },
  body,
);
export type CreateOrganizationBody = z.infer<typeof createOrganizationBodySchema>;

export const setActiveOrganizationBodySchema = strictObject({ organizationId: uuid() }, body);

/** `POST /api/auth/organization/invite-member`: into the active organization. */
export const inviteMemberBodySchema = strictObject({ email: emailSchema, role: roleSchema }, body);
export type InviteMemberBody = z.infer<typeof inviteMemberBodySchema>;

export const invitationSchema = z.object({
  id: idSchema,
  organizationId: idSchema,
  email: z.string().meta({ description: 'Lower-cased; only a user signed in with it can accept.' }),
  role: roleSchema,
  invitedBy: idSchema,
  expiresAt: timestampSchema,
});
export type Invitation = z.infer<typeof invitationSchema>;

export const acceptInvitationBodySchema = strictObject({ invitationId: uuid() }, body);
export const cancelInvitationBodySchema = strictObject({ invitationId: uuid() }, body);

export const invitationStatuses = ['pending', 'accepted', 'cancelled', 'expired'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

/** An invitation as the organization's admins see it in `list-invitations` and `cancel-invitation`. */
export const invitationViewSchema = invitationSchema.extend({
  status: z.enum(invitationStatuses).meta({
    description:
      'Only a `pending` invitation can be accepted. Whichever ended it first counts: an invitation that had expired before it was cancelled is `expired`.',
  }),
  createdAt: timestampSchema,
  acceptedAt: timestampSchema.nullable(),
  acceptedBy: idSchema.nullable().meta({ description: 'The user who accepted it.' }),
  cancelledAt: timestampSchema.nullable().meta({
    description: 'When `status` is `cancelled`; null for an invitation from before it was recorded.',
  }),
  cancelReason: z.enum(['cancelled', 'inviter-removed', 'inviter-demoted']).nullable().meta({
    description:
      'When `status` is `cancelled`: an admin cancelled it, or its sender was removed (or left), or was demoted below the role needed to invite at its role.',
  }),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const invitationListQuerySchema = z.object({
  status: z
    .enum(invitationStatuses, { error: expected(`one of ${invitationStatuses.join(', ')}`) })
    .exactOptional()
    .meta({ description: 'Only invitations with this status.' }),
});

export const invitationListSchema = z.object({
  organizationId: idSchema,
  items: z.array(invitationViewSchema),
});

/**
 * A pending invitation as the person invited sees it (`list-user-invitations`): which organization, by
 * whom, at which role. They are not a member yet, so the organization and the sender are named here.
 */
export const userInvitationSchema = invitationSchema.extend({
  createdAt: timestampSchema,
  organizationName: z.string(),
  organizationSlug: z.string(),
  invitedByName: z
    .string()
    .nullable()
    .meta({ description: 'The name of the user who sent it; null when that account is unknown here.' }),
});
export type UserInvitation = z.infer<typeof userInvitationSchema>;

export const userInvitationListSchema = z.object({
  items: z.array(userInvitationSchema).meta({ description: 'Newest first.' }),
});
export type UserInvitationList = z.infer<typeof userInvitationListSchema>;

export const updateMemberRoleBodySchema = strictObject({ userId: uuid(), role: roleSchema }, body);
export const removeMemberBodySchema = strictObject({ userId: uuid() }, body);

export const memberSchema = z.object({
  userId: idSchema,
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  joinedAt: timestampSchema,
});
export type Member = z.infer<typeof memberSchema>;

export const memberListSchema = z.object({ organizationId: idSchema, items: z.array(memberSchema) });

export const removedMemberSchema = z.object({
  organizationId: idSchema,
  userId: idSchema,
  role: roleSchema.meta({ description: 'The role the member had.' }),
});

/** Resources and actions of `organization/has-permission` (the domain's `permissionActions`). */
export const permissionActions = {
  object: ['read', 'read-private', 'create', 'update', 'delete', 'upload', 'share'],
  member: ['list', 'invite', 'update-role', 'remove', 'manage-owners'],
  apiKey: ['create', 'list', 'revoke'],
  audit: ['read'],
} as const;

function actionsOf<const Actions extends readonly [string, ...string[]]>(actions: Actions) {
  return z
    .array(z.enum(actions, { error: expected(`one of ${actions.join(', ')}`) }), {
      error: expected('an array of actions'),
    })
    .min(1, { error: 'must name at least one action' })
    .exactOptional();
}

/** `{permission: {object: ['create']}}`: true when the active role allows every action named. */
export const hasPermissionBodySchema = strictObject(
  {
    permission: strictObject(
      {
        object: actionsOf(permissionActions.object),
        member: actionsOf(permissionActions.member),
        apiKey: actionsOf(permissionActions.apiKey),
        audit: actionsOf(permissionActions.audit),
      },
      'an object of resources and their actions',
    ).refine((value) => Object.keys(value).length > 0, { error: 'must name at least one resource' }),
  },
  body,
);
export type HasPermissionBody = z.infer<typeof hasPermissionBodySchema>;

export const hasPermissionSchema = z.object({ success: z.boolean() });
