import type { Request } from 'express';
import type { Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import { recordNewOrganization } from './record-organization.js';

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
  const recorded = await recordNewOrganization(
    { handling: commandContextOf(deps), pool: deps.pool },
    {
      orgId,
      name: owner.name,
      wanted: { name: owner.name },
      personal: true,
      ownerId: owner.userId,
      metadata: metadataOf(req, at, { userId: owner.userId, orgId }),
    },
  );
  if (recorded === null) throw new Error('no free slug for the personal organization');
  return recorded;
}
