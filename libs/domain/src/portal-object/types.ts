export const portalKinds = ['catalog', 'collection', 'item'] as const;
export type PortalKind = (typeof portalKinds)[number];

/** Deepest level an object may sit at; a root-level object has depth 1. */
export const MAX_DEPTH = 32;

export interface Link {
  readonly title: string;
  readonly href: string;
  readonly rel: string;
  readonly type: string;
  readonly targetType: string;
  readonly linkJson: Readonly<Record<string, unknown>>;
}

/** Four numbers: west, south, east, north. */
export type BBox = readonly [number, number, number, number];

/** [start, end or null]; ISO 8601 UTC. */
export type TemporalInterval = readonly [string, string | null];

export interface CollectionExtent {
  readonly spatial: { readonly bbox: readonly BBox[] };
  readonly temporal: { readonly interval: readonly TemporalInterval[] };
}

export function streamIdOf(kind: PortalKind, id: string): string {
  return `${kind}-${id}`;
}
