import type { ApiDependencies } from '../dependencies.js';
import { HttpProblem } from '../http/problem.js';

/**
 * Some rules read the tree read model (children of a node, height of a subtree). Before that, wait until
 * the read model includes every event committed so far, so a child created a moment ago is not missed.
 */
export async function awaitReadModelFreshness(
  deps: Pick<ApiDependencies, 'eventStore' | 'projection' | 'config'>,
) {
  const head = await deps.eventStore.headPosition();
  if (!(await deps.projection.waitFor(head, deps.config.PROJECTION_WAIT_MS))) {
    throw new HttpProblem(503, 'the read models are behind; retry shortly', 'NOT_CAUGHT_UP', undefined, {
      'Retry-After': '1',
    });
  }
}
