import { randomUUID } from 'node:crypto';
import type { PortalItemStatus, PortalKind } from '@portal/contracts';
import { grantsOf, type Link, type ObjectAccess } from '@portal/domain';
import type { Pool } from '@portal/platform';
import {
  mayRead,
  type ModelCaller,
  type ModelObject,
  type ModelShare,
  type ModelVisibility,
} from './visibility-model.js';

/** One object of a test tree, by a name the test chooses; `parent` names another one above it. */
export interface NodeSpec {
  readonly key: string;
  readonly kind: PortalKind;
  readonly parent?: string;
  readonly orgId: string | null;
  readonly visibility: ModelVisibility;
  readonly createdBy: string | null;
  readonly shares?: readonly ModelShare[];
  readonly status?: PortalItemStatus;
  readonly assetBytes?: number;
  /** Keys of other objects this one links to (as bare ids), besides an external link. */
  readonly linksTo?: readonly string[];
  readonly title?: string;
}

export interface SeededNode {
  readonly spec: NodeSpec;
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  /** Keys from the root level down to the parent. */
  readonly ancestors: readonly string[];
  readonly children: readonly string[];
}

export interface SeededTree {
  readonly nodes: ReadonlyMap<string, SeededNode>;
  node(key: string): SeededNode;
  /**
   * Whether `caller` may read the object, by the documented rules (visibility-model.ts): the expected
   * answer, independent of the principals the rows were seeded with and of the SQL under test.
   */
  visibleTo(caller: ModelCaller, key: string): boolean;
  keyOf(id: string): string;
}

/**
 * Inserts the objects into `read.portal_objects` as the projector would leave them: materialized paths,
 * stored child counts, and read principals from the domain's `grantsOf` over each object's path (what
 * the projector stores).
 */
export async function seedTree(pool: Pool, specs: readonly NodeSpec[]): Promise<SeededTree> {
  const byKey = new Map(specs.map((spec) => [spec.key, spec]));
  const pathOf = (spec: NodeSpec): NodeSpec[] => {
    const parent = spec.parent === undefined ? undefined : byKey.get(spec.parent);
    return parent ? [...pathOf(parent), spec] : [spec];
  };
  const access = (spec: NodeSpec): ObjectAccess & ModelObject => ({
    orgId: spec.orgId,
    visibility: spec.visibility,
    createdBy: spec.createdBy,
    shares: spec.shares ?? [],
  });
  const nodes = new Map<string, SeededNode>();
  for (const spec of specs) {
    const path = pathOf(spec);
    const title = spec.title ?? `${spec.key} title`;
    nodes.set(spec.key, {
      spec,
      id: randomUUID(),
      slug: spec.key,
      title,
      ancestors: path.slice(0, -1).map((step) => step.key),
      children: specs.filter((other) => other.parent === spec.key).map((other) => other.key),
    });
  }
  const node = (key: string): SeededNode => {
    const found = nodes.get(key);
    if (!found) throw new Error(`no node ${key}`);
    return found;
  };
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (const [index, seeded] of [...nodes.values()].entries()) {
    const { spec } = seeded;
    const grants = grantsOf(pathOf(spec).map(access));
    const at = new Date(start + index * 1000);
    const links: Link[] = [
      ...(spec.linksTo ?? []).map((key) => ({
        title: key,
        href: node(key).id,
        rel: 'related',
        type: 'application/json',
        targetType: 'portal-item',
        linkJson: {},
      })),
    ];
    await pool.query(
      `INSERT INTO read.portal_objects (id, kind, status, title, description, parent_id, org_id, slug,
         ancestor_ids, depth, child_count, links, tags, version, created_at, updated_at, asset_bytes,
         visibility, effective_visibility, created_by, shares, read_principals)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '[]', 1, $13, $13, $14, $15, $16, $17, $18, $19)`,
      [
        seeded.id,
        spec.kind,
        spec.status ?? 'ready',
        seeded.title,
        `about ${spec.key}`,
        spec.parent === undefined ? null : node(spec.parent).id,
        spec.orgId,
        seeded.slug,
        seeded.ancestors.map((key) => node(key).id),
        seeded.ancestors.length + 1,
        seeded.children.length,
        JSON.stringify(links),
        at,
        spec.assetBytes ?? 0,
        spec.visibility,
        grants.effectiveVisibility,
        spec.createdBy,
        JSON.stringify(spec.shares ?? []),
        grants.read,
      ],
    );
  }
  const keys = new Map([...nodes.values()].map((seeded) => [seeded.id, seeded.spec.key]));
  return {
    nodes,
    node,
    visibleTo: (caller, key) => mayRead(caller, pathOf(node(key).spec).map(access)),
    keyOf: (id) => {
      const key = keys.get(id);
      if (key === undefined) throw new Error(`no node with id ${id}`);
      return key;
    },
  };
}
