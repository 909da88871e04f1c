/**
 * The node flags of every process that may rebuild the read models: the projector (it rebuilds an
 * outdated read model when it starts), `rebuild.ts` and the admin CLI (`rebuild`). A copy rebuild keeps
 * every object of the history in the heap and makes each table's rows from them; with node's default
 * young generation (16 MB semi-spaces) most of a million items' write went to garbage collection. With
 * 64 MB the rebuild of the STAC bench's million items took 135 s instead of 220 (docs/projection.md,
 * "The young generation"). Scripts, compose, Kubernetes and the image state the same flag where they
 * start node; node-flags.unit.test.ts keeps them so.
 */
export const PROJECTOR_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** The scripts that may rebuild, by their path from the repository's root. */
export const rebuildingScripts: readonly string[] = [
  'apps/projector/src/main.ts',
  'apps/projector/src/rebuild.ts',
  'scripts/admin/main.ts',
];

/** The node flags to start `script` (a path from the repository's root) with, as `npm start` would. */
export function nodeFlagsOf(script: string): readonly string[] {
  return rebuildingScripts.includes(script) ? PROJECTOR_NODE_FLAGS : [];
}
