import type { Request } from 'express';
import { changeObject } from '@portal/commands';
import type { Caller, PortalKind, PortalObjectChanges, UpdatePortalObject } from '@portal/domain';
import { commandContextOf } from '../../commands/command-context.js';
import { metadataOf } from '../../commands/metadata.js';
import type { ApiDependencies } from '../../dependencies.js';
import { expectedRevisionFrom } from '../../http/consistency.js';

/**
 * A STAC PUT or PATCH as the portal's update of one object: `changes` applied by the caller with the
 * `edit` right, `If-Match` honoured, the object's kind required.
 */
export function updateObject(
  deps: ApiDependencies,
  req: Request,
  target: {
    readonly id: string;
    readonly kind: PortalKind;
    readonly caller: Caller;
    readonly changes: PortalObjectChanges;
  },
): ReturnType<typeof changeObject> {
  const expectedRevision = expectedRevisionFrom(req);
  return changeObject(commandContextOf(deps), {
    id: target.id,
    kinds: [target.kind],
    caller: target.caller,
    action: 'edit',
    metadata: metadataOf(req, deps.now()),
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
    command: ({ object, placement }): UpdatePortalObject => ({
      type: 'UpdatePortalObject',
      data: { id: object.id, changes: target.changes, ancestorDeleted: placement.ancestorDeleted },
    }),
  });
}
