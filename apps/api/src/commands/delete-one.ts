import type { Request, Response } from 'express';
import { deleteObjects } from '@portal/commands';
import type { Caller, PortalKind } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { commandContextOf } from './command-context.js';
import { metadataOf } from './metadata.js';
import { respondToCommand } from './respond.js';

/**
 * Deletes one object (`If-Match` honoured) and answers `{deleted: [id]}` with the object's new
 * revision once projected: with `200` on the portal API, `204` (the body dropped) on STAC's. A client
 * that prefers not to wait gets `202` with the body at once.
 */
export async function deleteOneAndRespond(
  deps: ApiDependencies,
  req: Request,
  res: Response,
  target: {
    readonly id: string;
    readonly caller: Caller;
    readonly recursive: boolean;
    /** The kinds the id may name; any kind when absent. */
    readonly kinds?: readonly PortalKind[];
    /** The status once projected; 200 when absent. */
    readonly success?: 200 | 204;
  },
): Promise<void> {
  const expectedRevision = expectedRevisionFrom(req);
  const result = await deleteObjects(commandContextOf(deps), {
    ids: [target.id],
    ...(target.kinds === undefined ? {} : { kinds: target.kinds }),
    recursive: target.recursive,
    caller: target.caller,
    metadata: metadataOf(req, deps.now()),
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
  });
  const [object] = result.objects;
  const revision = object ? (result.revisions.get(object.streamId) ?? object.revision) : null;
  await respondToCommand(
    deps,
    req,
    res,
    { position: result.position, revision },
    { status: target.success ?? 200, body: { deleted: [target.id] } },
  );
}
