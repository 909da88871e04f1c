import type { Router, Request, Response } from 'express';
import { historyQuerySchema, portalItemQuerySchema, type AsOf } from '@portal/contracts';
import { DomainError } from '@portal/domain';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';
import { baseUrlOf } from '../http/base-url.js';
import { etagOf } from '../http/consistency.js';
import { listPage } from '../http/list-page.js';
import { idParamsSchema } from '../http/params.js';
import { apiRouter, route } from '../http/routes.js';
import { parseInput } from '../http/validate.js';
import { userNames } from '@portal/read-model-identity';
import { pastObject, type NoPastObject } from './as-of.js';
import { historyEntry } from './history-entry.js';
import { historySlice } from './history-page.js';
import { pastRecord } from './past-record.js';
import { readableStream } from './readable-stream.js';

/**
 * `GET /api/v1/portal/items/{id}/history`: the object's events, oldest first, from its own stream (the
 * truth, never a read model), each with its actor and what it changed.
 */
export function historyRoutes(deps: ApiDependencies): Router {
  const router = apiRouter();
  route(router, '/api/v1/portal/items/:id/history', {
    get: async (req, res) => {
      const { id } = parseInput(idParamsSchema, req.params, 'path');
      const query = parseInput(historyQuerySchema, req.query, 'query');
      const stream = await readableStream(deps, req, id);
      const slice = historySlice(stream.events, query);
      const names = await userNames(
        deps.pool,
        slice.events.flatMap((event) => (event.metadata.actorId === null ? [] : [event.metadata.actorId])),
      );
      const items = slice.events.map((event) =>
        withSharesHidden(historyEntry(event, names), stream.mayManage),
      );
      res.json(listPage(req, deps.config, { items, next: slice.next }));
    },
  });
  return router;
}

/**
 * Whom an object is shared with is for those who may manage its shares (`GET …/shares` needs the same):
 * other readers see that a share was given or ended, not to whom or with which right.
 */
function withSharesHidden<Entry extends { type: string; change: unknown }>(
  entry: Entry,
  mayManage: boolean,
): Entry {
  if (mayManage || (entry.type !== 'ObjectShared' && entry.type !== 'ObjectUnshared')) return entry;
  const hidden = { principal: null, permission: null };
  return {
    ...entry,
    change: entry.type === 'ObjectShared' ? { ...hidden, previousPermission: null } : hidden,
  };
}

function describeAsOf(asOf: AsOf): string {
  return asOf.kind === 'revision' ? `revision ${asOf.revision}` : asOf.text;
}

const absenceWords: Record<NoPastObject, string> = {
  'not-created': 'did not exist yet at',
  deleted: 'was deleted by',
  'no-such-revision': 'has no',
};

/** Whether `GET /api/v1/portal/items/{id}` asks for the past: then `portalItemAsOf` answers it. */
export function asksForThePast(req: Request): boolean {
  return Object.hasOwn(req.query, 'asOf');
}

/**
 * `GET /api/v1/portal/items/{id}?asOf=…`: the object as it was at a time or a revision, rebuilt from its
 * events. The caller needs read access to the object now (the same check as its history); a deleted
 * object is answered as it was before its tombstone.
 */
export async function portalItemAsOf(deps: ApiDependencies, req: Request, res: Response): Promise<void> {
  const { id } = parseInput(idParamsSchema, req.params, 'path');
  const { asOf } = parseInput(portalItemQuerySchema, req.query, 'query');
  if (asOf === undefined) throw new Error('portalItemAsOf is only called with asOf');
  const stream = await readableStream(deps, req, id);
  const past = pastObject(stream.events, asOf);
  if (typeof past === 'string') {
    throw new DomainError('NOT_FOUND', `portal item ${id} ${absenceWords[past]} ${describeAsOf(asOf)}`);
  }
  const record = await pastRecord(deps.pool, past, baseUrlOf(req, deps.config), principalsOf(req));
  res.setHeader('ETag', etagOf(BigInt(record.revision)));
  res.json(record);
}
