import type { Request, Response } from 'express';
import { deleteObjects } from '@portal/commands';
import type { Caller, PortalKind } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { expectedRevisionFrom } from '../http/consistency.js';
import { commandContextOf } from './command-context.js';
import { metadataOf } from './metadata.js';
import { respondToCommand } from './respond.js';

/**
 * Deletes one object (`If-Match` honoured) and answers `200 {deleted: [id]}` (the STAC transactions:
 * 204, no body) with the object's new revision, after projection unless the client prefers not to
 * wait (202 with the body).
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
  },
  status: 200 | 204 = 200,
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
    { status, body: { deleted: [target.id] } },
  );
}
