import type { RequestHandler } from 'express';
import { deleteCatalogsQuerySchema } from '@portal/contracts';
import { decide, DomainError, type PortalObjectEvent, type Position } from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandCaller } from '../commands/command-caller.js';
import { appendDecision, respondToCommand } from '../commands/execute.js';
import { requireAccessTo } from '../commands/object-permissions.js';
import { loadObject, placementOf, type LoadedObject } from '../commands/portal-object-repository.js';
import { awaitReadModelFreshness } from '../commands/read-model-freshness.js';
import { parseInput } from '../http/validate.js';
import { findLiveObjects } from '../read-model/portal-object-rows.js';

/**
 * `DELETE /api/v1/portal/catalogs/?ids=…`: every catalog is checked before any is deleted, so one
 * refusal deletes nothing. The checks are those of deleting each alone: a catalog that does not exist
 * or that the caller cannot read answers 404 (the same words for both), one they may read but not edit
 * 403 (401 when anonymous), a non-empty one without `recursive=true` 409. Nothing is skipped silently:
 * a pipeline that asked for ten deletes and got 200 knows all ten happened.
 */
export function deleteCatalogs(deps: ApiDependencies): RequestHandler {
  return async (req, res) => {
    // The schema drops duplicate ids, so no catalog is decided on twice.
    const { ids, recursive } = parseInput(deleteCatalogsQuerySchema, req.query, 'query');
    const caller = await commandCaller(deps, req);
    await awaitReadModelFreshness(deps);
    const rows = new Map((await findLiveObjects(deps.pool, ids)).map((row) => [row.id, row]));
    const decisions: { object: LoadedObject; events: readonly PortalObjectEvent[] }[] = [];
    for (const id of ids) {
      const object = await loadObject(deps.eventStore, id, ['catalog']);
      if (!object) throw new DomainError('NOT_FOUND', `catalog ${id} not found`);
      const placement = await placementOf(deps.eventStore, object);
      requireAccessTo(caller, placement, 'edit', `catalog ${id}`);
      const events = decide(
        {
          type: 'DeletePortalObject',
          data: {
            id,
            recursive,
            hasChildren: (rows.get(id)?.child_count ?? 0) > 0,
            ancestorDeleted: placement.ancestorDeleted,
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
