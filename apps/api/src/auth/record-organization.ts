import { handleCommand, type CommandHandling } from '@portal/commands';
import { organizationDecider, organizationStreamId, type EventMetadata, type Position } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { releaseOrganizationSlug, reserveOrganizationSlug } from './organization-slugs.js';

export interface NewOrganization {
  readonly orgId: string;
  readonly name: string;
  /** The slug asked for, or the name to derive one from. */
  readonly wanted: { readonly slug: string } | { readonly name: string };
  readonly personal: boolean;
  readonly ownerId: string;
  readonly metadata: EventMetadata;
}

/**
 * Creates an organization with its first owner: the slug is reserved first and released again if
 * OrganizationCreated cannot be appended. `null` when no slug could be reserved (the one asked for is
 * taken). Sign-up, `POST /api/auth/organization/create` and the admin console's `orgs create` share it.
 */
export async function recordNewOrganization(
  deps: { readonly handling: CommandHandling; readonly pool: Pool },
  organization: NewOrganization,
): Promise<{ readonly slug: string; readonly position: Position | null } | null> {
  const { orgId, name, personal, ownerId } = organization;
  const slug = await reserveOrganizationSlug(deps.pool, deps.handling.store, orgId, organization.wanted);
  if (slug === null) return null;
  try {
    const result = await handleCommand(deps.handling, {
      streamId: organizationStreamId(orgId),
      decider: organizationDecider,
      command: { type: 'CreateOrganization', data: { orgId, name, slug, personal, ownerId } },
      metadata: organization.metadata,
      expectedRevision: 'no_stream',
    });
    return { slug, position: result.position };
  } catch (error) {
    await releaseOrganizationSlug(deps.pool, orgId);
    throw error;
  }
}
