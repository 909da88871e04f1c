import { handleCommand } from '@portal/commands';
import { createOrganizationBodySchema, describeZodError } from '@portal/contracts';
import { formatPosition, organizationDecider, organizationStreamId } from '@portal/domain';
import { randomUUID } from 'node:crypto';
import { recordNewOrganization } from '../../../apps/api/src/auth/record-organization.js';
import { arg, defineCommand, stringOption } from '../cli/command.js';
import { refused, usageFailure } from '../cli/failure.js';
import { operatorMetadata } from '../cli/operator.js';
import { authSchemaReady, commandHandling, organizationByRef, userByEmail } from './identity.js';

export const orgsCreateCommand = defineCommand({
  path: ['orgs', 'create'],
  positionals: ['slug'],
  options: {
    name: { type: 'string', value: 'name', description: "the organization's display name (required)" },
    owner: { type: 'string', value: 'email', description: 'its first owner, a registered user (required)' },
  },
  summary: 'create an organization with its first owner',
  details: [
    'Records CreateOrganization through the command handler, as POST /api/auth/organization/create',
    'does for a signed-in user: OrganizationCreated and MemberAdded (the owner), with your name as',
    'metadata.operator. An organization always has an owner, hence --owner; add more with make-owner.',
    'The slug is reserved first: a taken slug is refused (exit 4).',
  ].join('\n'),
  async run(context, input) {
    const ownerEmail = stringOption(input, 'owner');
    if (ownerEmail === undefined)
      throw usageFailure('orgs create: --owner <email> is required: an organization has an owner');
    const parsed = createOrganizationBodySchema.safeParse({
      name: stringOption(input, 'name'),
      slug: arg(input, 'slug'),
    });
    if (!parsed.success) {
      const message = describeZodError(parsed.error)
        .message.replace(/^name: /, '--name: ')
        .replace(/^slug: /, '<slug>: ');
      throw usageFailure(`orgs create: ${message}`);
    }
    const { name, slug = '' } = parsed.data;
    const owner = await userByEmail(context, ownerEmail);
    if (owner.disabled) throw refused(`${owner.email} is disabled and cannot own an organization`);
    await authSchemaReady(context);
    const orgId = randomUUID();
    const at = context.now();
    const recorded = await recordNewOrganization(
      { handling: await commandHandling(context), pool: context.resources.pool },
      {
        orgId,
        name,
        wanted: { slug },
        personal: false,
        ownerId: owner.userId,
        metadata: operatorMetadata(context.operator, orgId, at),
      },
    );
    if (recorded === null) throw refused(`the slug ${slug} is taken; choose another`);
    const json = {
      id: orgId,
      slug: recorded.slug,
      name,
      owner: { userId: owner.userId, email: owner.email },
      position: recorded.position && formatPosition(recorded.position),
    };
    return { json, text: `organization ${recorded.slug} (${orgId}) created, owned by ${owner.email}` };
  },
});

export const orgsMakeOwnerCommand = defineCommand({
  path: ['orgs', 'make-owner'],
  positionals: ['org', 'user-email'],
  options: {},
  summary: 'make a user an owner of an organization (by its slug or id)',
  details: [
    'Records AppointOwner through the command handler: a member is promoted (MemberRoleChanged), anyone',
    'else joins as owner (MemberAdded); an owner stays as is (exit 0, nothing recorded). For an',
    "organization whose owners are gone or locked out; members change each other's roles through the",
    "API. The events carry your name as metadata.operator, so the organization's audit feed shows the",
    'change.',
  ].join('\n'),
  async run(context, input) {
    const orgId = await organizationByRef(context, arg(input, 'org'));
    const user = await userByEmail(context, arg(input, 'user-email'));
    if (user.disabled) throw refused(`${user.email} is disabled and cannot be made an owner`);
    const result = await handleCommand(await commandHandling(context), {
      streamId: organizationStreamId(orgId),
      decider: organizationDecider,
      command: { type: 'AppointOwner', data: { userId: user.userId, actor: { operator: context.operator } } },
      metadata: operatorMetadata(context.operator, orgId, context.now()),
    });
    const [event] = result.events;
    const change =
      event === undefined ? 'already-owner' : event.type === 'MemberRoleChanged' ? 'promoted' : 'added';
    const from = event?.type === 'MemberRoleChanged' ? event.data.from : null;
    const json = {
      organizationId: orgId,
      userId: user.userId,
      email: user.email,
      change,
      previousRole: from,
      position: result.position && formatPosition(result.position),
    };
    const text = {
      'already-owner': `${user.email} is already an owner of ${arg(input, 'org')}; nothing recorded`,
      promoted: `${user.email} promoted from ${from ?? '?'} to owner of ${arg(input, 'org')}`,
      added: `${user.email} added to ${arg(input, 'org')} as owner`,
    }[change];
    return { json, text };
  },
});
