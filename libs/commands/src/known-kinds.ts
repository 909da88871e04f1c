import type { PortalKind } from '@portal/domain';
import { BoundedMap } from '@portal/platform';

/**
 * The kind of each object this process has found, by id. An object's kind is fixed when it is created
 * and ids are fresh UUIDs, never reused, so a kind once read stays true: loading the object again reads
 * its one stream instead of one stream per candidate kind (a parent of unknown kind is three reads, a
 * known one is one). Deletes keep the stream, so nothing is ever forgotten for being wrong, only for room.
 */
// When full, the oldest entry goes first: a pipeline's hot parents are re-learned with one read.
const kinds = new BoundedMap<string, PortalKind>(50_000);

export function rememberKind(id: string, kind: PortalKind): void {
  if (!kinds.has(id)) kinds.set(id, kind);
}

/**
 * The kinds worth reading for `id` among `candidates`: the known kind alone, nothing when the known
 * kind is not a candidate (the object exists, as something else), else every candidate.
 */
export function kindsToRead(id: string, candidates: readonly PortalKind[]): readonly PortalKind[] {
  const known = kinds.get(id);
  if (known === undefined) return candidates;
  return candidates.includes(known) ? [known] : [];
}
