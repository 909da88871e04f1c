import type { Request } from 'express';
import { handleCommand, type SideEffect } from '@portal/commands';
import {
  organizationDecider,
  organizationStreamId,
  type OrganizationCommand,
  type OrganizationEvent,
} from '@portal/domain';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from '../commands/command-context.js';
import { metadataOf } from '../commands/metadata.js';
import type { CommandOutcome } from '../commands/respond.js';

export interface OrganizationDecision {
  readonly outcome: CommandOutcome;
  readonly events: readonly OrganizationEvent[];
}

/**
 * An organization command through the command library, with this request's metadata: the actor is named
 * explicitly (at sign-up, the user being created is not the request's caller yet). A concurrent change
 * to the organization is decided again on a fresh read. `sideEffect` writes what the events announce (an
 * API key's row) right before they are appended, and is undone if that append fails, so nothing outlives
 * a refused or lost command. `creates`: the organization is new, under a fresh id.
 */
export async function runOrganizationCommand(
  deps: ApiDependencies,
  req: Request,
  orgId: string,
  command: OrganizationCommand,
  actor: { readonly userId: string; readonly at: Date },
  options: { readonly sideEffect?: SideEffect<OrganizationEvent>; readonly creates?: boolean } = {},
): Promise<OrganizationDecision> {
  const result = await handleCommand(commandContextOf(deps), {
    streamId: organizationStreamId(orgId),
    decider: organizationDecider,
    command,
    metadata: metadataOf(req, actor.at, { userId: actor.userId, orgId }),
    ...(options.creates === true ? { expectedRevision: 'no_stream' as const } : {}),
    ...(options.sideEffect === undefined ? {} : { sideEffect: options.sideEffect }),
  });
  const { position, revision, events } = result;
  return { outcome: { position, revision }, events };
}
