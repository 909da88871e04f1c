import type { Request } from 'express';
import { requireFound } from '@portal/commands';
import {
  findVisibleCollection,
  findVisibleCollectionKey,
  type CollectionKey,
  type PortalObjectRow,
} from '@portal/read-model-portal-objects';
import { principalsOf } from '../auth/caller.js';
import type { ApiDependencies } from '../dependencies.js';

/** A path parameter as the route declared it (express types a wildcard's value as an array). */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The path's collection (by its STAC id: its name or its UUID) as the caller sees it; anything else (a
 * malformed id too) is a 404.
 */
export async function visibleCollectionRow(deps: ApiDependencies, req: Request): Promise<PortalObjectRow> {
  const id = pathParam(req, 'collectionId');
  return requireFound(await findVisibleCollection(deps.pool, id, principalsOf(req)), `collection ${id}`);
}

/**
 * As `visibleCollectionRow`, its keys alone: the check without reading the row (whose visible child
 * count reads every child).
 */
export async function visibleCollection(deps: ApiDependencies, req: Request): Promise<CollectionKey> {
  const id = pathParam(req, 'collectionId');
  return requireFound(await findVisibleCollectionKey(deps.pool, id, principalsOf(req)), `collection ${id}`);
}
