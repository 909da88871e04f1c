import type { Request } from 'express';
import type { EventMetadata } from '@portal/domain';
import { metadataOf } from '../commands/metadata.js';

/**
 * The request's metadata with the actor of an identity event named explicitly: at sign-up the actor is
 * the user being created, who is not the request's caller yet.
 */
export function identityMetadata(
  req: Request,
  at: Date,
  actor: { readonly userId: string; readonly orgId: string | null },
): EventMetadata {
  return { ...metadataOf(req, () => at), actorId: actor.userId, orgId: actor.orgId };
}
