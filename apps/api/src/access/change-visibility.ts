import type { RequestHandler } from 'express';
import { changeVisibilityBodySchema, type VisibilityResult } from '@portal/contracts';
import type { ApiDependencies } from '../dependencies.js';
import { changeHandler } from '../commands/change-handler.js';
import { parseInput } from '../http/validate.js';

/**
 * `PUT /api/v1/portal/items/{id}/visibility`: the organization's admins and owners, and the object's
 * creator, decide who sees it (`manage`). Setting the visibility it already has records nothing.
 */
export function changeVisibility(deps: ApiDependencies): RequestHandler {
  return changeHandler(deps, {
    parse: (req) => parseInput(changeVisibilityBodySchema, req.body, 'body'),
    action: 'manage',
    command: ({ visibility }, { object, placement }) => ({
      type: 'ChangeVisibility',
      data: { id: object.id, visibility, ancestorDeleted: placement.ancestorDeleted },
    }),
    answer: ({ visibility }, object) => {
      const body: VisibilityResult = { id: object.id, visibility };
      return { status: 200, body };
    },
  });
}
