import type { Request } from 'express';
import type { Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { runOrganizationCommand } from './organization-commands.js';
import { releaseOrganizationSlug, reserveOrganizationSlug } from './organization-slugs.js';

/**
 * Creates the organization every user gets at sign-up, owned by them and named after them. Its slug is
 * reserved first and released if the events cannot be appended.
 */
export async function createPersonalOrganization(
  deps: ApiDependencies,
  req: Request,
  owner: { readonly userId: string; readonly name: string },
  orgId: string,
  at: Date,
): Promise<{ readonly slug: string; readonly position: Position | null }> {
  const slug = await reserveOrganizationSlug(deps.pool, deps.eventStore, orgId, { name: owner.name });
  if (slug === null) throw new Error('no free slug for the personal organization');
  try {
    const { outcome } = await runOrganizationCommand(
      deps,
      req,
      orgId,
      {
        type: 'CreateOrganization',
        data: { orgId, name: owner.name, slug, personal: true, ownerId: owner.userId },
      },
      { userId: owner.userId, at },
      { creates: true },
    );
    return { slug, position: outcome.position };
  } catch (error) {
    await releaseOrganizationSlug(deps.pool, orgId);
    throw error;
  }
}
