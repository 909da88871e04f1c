import type { ChangeRequest } from './change-load.js';

/** 200: answered after projection (the API's default); 202: accepted, projection slower than its wait. */
const accepted = (status: number): boolean => status === 200 || status === 202;

/** `PATCH` of a catalog's title, the catalogs taken in turn: one change when accepted. */
export function titleUpdates(catalogIds: readonly string[]): (n: number) => ChangeRequest {
  return (n) => ({
    method: 'PATCH',
    path: `/api/v1/portal/items/${catalogIds[n % catalogIds.length] ?? ''}`,
    body: JSON.stringify({ title: `Bench change ${n}` }),
    changes: 1,
    changesMade: (status) => (accepted(status) ? 1 : 0),
  });
}

interface BatchAnswer {
  readonly results?: readonly { readonly status?: number }[];
}

/**
 * `POST /` batches of `size` root catalog creates of the given visibility: how a pipeline ingests. One
 * change per command that answered 201; the batch answers after its newest event was projected.
 */
export function catalogBatches(size: number, visibility: 'org' | 'public'): (n: number) => ChangeRequest {
  return (n) => ({
    method: 'POST',
    path: '/',
    changes: size,
    body: JSON.stringify({
      commands: Array.from({ length: size }, (_, index) => ({
        type: 'createCatalog',
        body: {
          title: `Bench batch ${n} change ${index}`,
          description: 'Made by the events bench',
          links: [],
          visibility,
        },
      })),
    }),
    changesMade: (status, body) => {
      if (!accepted(status)) return 0;
      const answer = JSON.parse(body) as BatchAnswer;
      return (answer.results ?? []).filter((result) => result.status === 201).length;
    },
  });
}
