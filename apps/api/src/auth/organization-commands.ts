import type { Request } from 'express';
import {
  decideOrganization,
  foldOrganization,
  organizationStreamId,
  type OrganizationCommand,
  type OrganizationEvent,
  type OrganizationState,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { withOptimisticRetry, type CommandOutcome } from '../commands/execute.js';
import { identityMetadata } from './identity-metadata.js';

type Deps = Pick<ApiDependencies, 'eventStore' | 'newId'>;

export interface LoadedOrganization {
  readonly state: OrganizationState;
  /** `null` when the stream does not exist. */
  readonly revision: bigint | null;
}

export async function loadOrganization(deps: Deps, orgId: string): Promise<LoadedOrganization> {
  const recorded = await deps.eventStore.readStream(organizationStreamId(orgId));
  const events = recorded.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent);
  return { state: foldOrganization(events), revision: recorded.at(-1)?.revision ?? null };
}

export async function appendToOrganization(
  deps: Deps,
  req: Request,
  orgId: string,
  events: readonly OrganizationEvent[],
  expected: bigint | null,
  actor: { readonly userId: string; readonly at: Date },
): Promise<CommandOutcome> {
  const metadata = identityMetadata(req, actor.at, { userId: actor.userId, orgId });
  const result = await deps.eventStore.append(
    organizationStreamId(orgId),
    events.map((event) => ({ id: deps.newId(), type: event.type, data: event.data, metadata })),
    { expectedRevision: expected ?? 'no_stream' },
  );
  return { position: result.position, revision: result.nextRevision };
}

export interface OrganizationDecision {
  readonly outcome: CommandOutcome;
  readonly events: readonly OrganizationEvent[];
  /** The organization as it was before the command. */
  readonly before: OrganizationState;
}

/**
 * Load, decide, append with the expected revision; a concurrent change to the organization retries on a
 * fresh read. `sideEffect` runs after the decision and before the append (an API key row), and
 * `undoSideEffect` when that append fails, so nothing outlives a refused or lost command.
 */
export async function runOrganizationCommand(
  deps: Deps,
  req: Request,
  orgId: string,
  command: OrganizationCommand,
  actor: { readonly userId: string; readonly at: Date },
  hooks: { sideEffect?: () => Promise<void>; undoSideEffect?: () => Promise<void> } = {},
): Promise<OrganizationDecision> {
  return withOptimisticRetry(undefined, async () => {
    const { state, revision } = await loadOrganization(deps, orgId);
    const events = decideOrganization(command, state);
    if (events.length === 0) {
      return { outcome: { position: null, revision: revision ?? -1n }, events, before: state };
    }
    await hooks.sideEffect?.();
    try {
      const outcome = await appendToOrganization(deps, req, orgId, events, revision, actor);
      return { outcome, events, before: state };
    } catch (error) {
      await hooks.undoSideEffect?.();
      throw error;
    }
  });
}
