/**
 * How a rebuild fills its fresh schema up to the head: `copy` folds the history in memory and writes
 * each table once by COPY (docs/projection.md, "Copy rebuilds"), `batches` applies it in ordinary
 * batches, as the live projector does. Either way the catch-up after it goes in batches.
 */
export type RebuildReplay = 'copy' | 'batches';
export const rebuildReplays = ['copy', 'batches'] as const satisfies readonly RebuildReplay[];
