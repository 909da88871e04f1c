import type { TreeFacts } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';

type Dependencies = Pick<ApiDependencies, 'eventStore' | 'projection' | 'config' | 'pool'>;

/**
 * The tree rules' facts from the projected `read.portal_objects`, once it includes every write
 * acknowledged before the command asked (the event store's sync position, then the projector's
 * checkpoint). If it cannot get there within `PROJECTION_WAIT_MS` the command answers 503 with
 * `Retry-After` instead of guessing.
 */
export class ReadModelTreeFacts implements TreeFacts {
  constructor(private readonly deps: Dependencies) {}

  async awaitCommitted(): Promise<void> {
    const { eventStore, projection, config } = this.deps;
    const signal = AbortSignal.timeout(config.PROJECTION_WAIT_MS);
    const position = await eventStore.syncPosition(signal).catch((error: unknown) => {
      if (signal.aborted) throw notCaughtUp();
      throw error;
    });
    if (!(await projection.waitFor(position, config.PROJECTION_WAIT_MS))) throw notCaughtUp();
  }

  async liveChildCount(id: string): Promise<number> {
    const result = await this.deps.pool.query<{ child_count: number }>({
      name: 'tree_facts_child_count',
      text: 'SELECT child_count FROM read.portal_objects WHERE id = $1 AND deleted_at IS NULL',
      values: [id],
    });
    return result.rows[0]?.child_count ?? 0;
  }

  async subtreeHeight(id: string): Promise<number> {
    const result = await this.deps.pool.query<{ height: number | null }>({
      name: 'tree_facts_subtree_height',
      text: `
        SELECT (SELECT max(depth) FROM read.portal_objects
                 WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL) - depth AS height
          FROM read.portal_objects WHERE id = $1`,
      values: [id],
    });
    return result.rows[0]?.height ?? 0;
  }

  subtreeHasObjectNotEditableBy(id: string, principals: readonly string[]): Promise<boolean> {
    const editors = 'read.portal_edit_principals(org_id, created_by, effective_visibility, share_editors)';
    return this.anyLiveBelow('not_editable', `NOT ${editors} && $2::text[]`, [id, principals]);
  }

  subtreeHasObjectNotCreatedBy(id: string, userId: string): Promise<boolean> {
    return this.anyLiveBelow('not_created_by', 'created_by IS DISTINCT FROM $2::uuid', [id, userId]);
  }

  async liveItemsNamed(parentId: string, stacId: string): Promise<readonly string[]> {
    const result = await this.deps.pool.query<{ id: string }>({
      name: 'tree_facts_live_items_named',
      text: `
        SELECT id FROM read.portal_objects
         WHERE stac_id = $2 AND parent_id = $1 AND deleted_at IS NULL AND kind = 'item'
         LIMIT 16`,
      values: [parentId, stacId],
    });
    return result.rows.map((row) => row.id);
  }

  /** Whether a live object below `$1` meets `condition`: one probe of the ancestor_ids GIN index. */
  private async anyLiveBelow(name: string, condition: string, values: unknown[]): Promise<boolean> {
    const result = await this.deps.pool.query<{ found: boolean }>({
      name: `tree_facts_below_${name}`,
      text: `
        SELECT EXISTS (
          SELECT 1 FROM read.portal_objects
           WHERE ancestor_ids @> ARRAY[$1::uuid] AND deleted_at IS NULL AND ${condition}) AS found`,
      values,
    });
    return result.rows[0]?.found ?? false;
  }
}

function notCaughtUp(): HttpProblem {
  return new HttpProblem(503, 'the read models are behind; retry shortly', 'NOT_CAUGHT_UP', undefined, {
    'Retry-After': '1',
  });
}
