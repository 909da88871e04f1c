import { setTimeout as delay } from 'node:timers/promises';
import {
  ConcurrencyError,
  DomainError,
  type EventMetadata,
  type StructureChangeAbandoned,
  type StructureOperation,
} from '@portal/domain';
import type { CommandContext } from '../command-context.js';
import { applyDecided } from './apply-decided.js';
import { lastOperation } from './last-operation.js';

/** `deadline` (epoch ms) bounds the wait for a live operation; `null` waits until it ends or dies. */
export interface Patience {
  readonly deadline: number | null;
}

/**
 * Brings a structure stream to rest and returns its revision then (`null`: no stream yet): the newest
 * operation decided and applied, refused or abandoned. A live operation is waited for; one undecided
 * past `abandonAfterMs` is taken for dead and abandoned (with the stream's revision as the expected
 * one, so it and its process cannot both win); a decided one is applied if its process did not get to.
 */
export async function settle(
  context: CommandContext,
  streamId: string,
  patience: Patience,
  metadata: EventMetadata,
): Promise<bigint | null> {
  const { store, structure } = context;
  const maxPollMs = structure.maxPollMs ?? 50;
  for (let pause = structure.firstPollMs ?? 2; ; pause = Math.min(pause * 2, maxPollMs)) {
    const last = await lastOperation(store, streamId);
    if (!last) return null;
    const { operation, revision } = last;
    const { state } = operation;
    if (state.status === 'abandoned') return revision;
    if (state.status === 'decided') {
      if (state.outcome.applied) {
        for (const append of state.outcome.appends) await applyDecided(store, append, state.metadata);
      }
      return revision;
    }
    if (isDead(context, operation)) {
      try {
        await store.append(streamId, [abandonment(context, operation, metadata)], {
          expectedRevision: revision,
        });
        return revision + 1n;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        continue;
      }
    }
    if (patience.deadline !== null && context.now().getTime() > patience.deadline) {
      throw new DomainError(
        'BUSY',
        'another move or delete in this organization is still running; retry in a moment',
      );
    }
    await delay(pause);
  }
}

function isDead(context: CommandContext, operation: StructureOperation): boolean {
  if (operation.startedAt === null) return false;
  const age = context.now().getTime() - Date.parse(operation.startedAt);
  return age > context.structure.abandonAfterMs;
}

function abandonment(
  context: CommandContext,
  operation: StructureOperation,
  metadata: EventMetadata,
): {
  id: string;
  type: StructureChangeAbandoned['type'];
  data: StructureChangeAbandoned['data'];
  metadata: EventMetadata;
} {
  return {
    id: context.newId(),
    type: 'StructureChangeAbandoned',
    data: {
      operationId: operation.operationId,
      change: operation.change,
      reason: `undecided ${context.structure.abandonAfterMs} ms after it started`,
    },
    metadata: { ...metadata, occurredAt: context.now().toISOString() },
  };
}
