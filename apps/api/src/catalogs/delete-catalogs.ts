import type { RequestHandler } from 'express';
import { deleteCatalogsQuerySchema } from '@portal/contracts';
import { decide, DomainError, type PortalObjectEvent, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { appendDecision, respondToCommand } from '../commands/execute.js';
import { isAncestorDeleted, loadObject, type LoadedObject } from '../commands/portal-object-repository.js';
import { awaitReadModelFreshness } from '../commands/read-model-freshness.js';
import { parseInput } from '../http/validate.js';
import { findLiveObjects } from '../read-model/portal-object-rows.js';

/**
 * `DELETE /api/v1/portal/catalogs/?ids=…`: every catalog is checked before any is deleted, so one
 * refusal (unknown id, non-empty without `recursive=true`) deletes nothing.
 */
export function deleteCatalogs(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    // The schema drops duplicate ids, so no catalog is decided on twice.
    const { ids, recursive } = parseInput(deleteCatalogsQuerySchema, req.query, 'query');
    await awaitReadModelFreshness(deps);
    const rows = new Map((await findLiveObjects(deps.pool, ids)).map((row) => [row.id, row]));
    const decisions: { object: LoadedObject; events: readonly PortalObjectEvent[] }[] = [];
    for (const id of ids) {
      const object = await loadObject(deps.eventStore, id, ['catalog']);
      if (!object) throw new DomainError('NOT_FOUND', `catalog ${id} not found`);
      const events = decide(
        {
          type: 'DeletePortalObject',
          data: {
            id,
            recursive,
            hasChildren: (rows.get(id)?.child_count ?? 0) > 0,
            ancestorDeleted: await isAncestorDeleted(deps.eventStore, object),
          },
        },
        object.state,
      );
      decisions.push({ object, events });
    }
    let position: Position | null = null;
    for (const { object, events } of decisions) {
      const outcome = await appendDecision(deps, req, object.streamId, events, {
        expectedRevision: object.revision,
        currentRevision: object.revision,
      });
      position = outcome.position ?? position;
    }
    await respondToCommand(
      deps,
      req,
      res,
      { position, revision: null },
      { status: 200, body: { deleted: ids } },
    );
  };
}
