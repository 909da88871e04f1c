import { OrganizationDirectory, type CommandContext } from '@portal/commands';
import type { ApiDependencies } from '../dependencies.js';
import { ReadModelTreeFacts } from './read-model-tree-facts.js';

const contexts = new WeakMap<ApiDependencies, CommandContext>();

/**
 * The command library's view of the API's dependencies, made once per app. A structure operation
 * waits for another of its organization at most `PROJECTION_WAIT_MS` (a request's usual bound), and
 * one still undecided after twice that plus five seconds is taken for dead: a live one's read-model
 * wait is itself bounded by `PROJECTION_WAIT_MS`.
 */
export function commandContextOf(deps: ApiDependencies): CommandContext {
  let context = contexts.get(deps);
  if (!context) {
    context = {
      store: deps.eventStore,
      tree: new ReadModelTreeFacts(deps),
      newId: deps.newId,
      now: deps.now,
      structure: {
        waitMs: deps.config.PROJECTION_WAIT_MS,
        abandonAfterMs: 2 * deps.config.PROJECTION_WAIT_MS + 5_000,
      },
      organizations: new OrganizationDirectory(),
    };
    contexts.set(deps, context);
  }
  return context;
}
