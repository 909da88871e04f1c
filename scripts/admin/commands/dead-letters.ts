import { formatPosition } from '@portal/domain';
import {
  listDeadLetters,
  type DeadLetterRecord,
  type DeadLetterState,
} from '../../../apps/projector/src/dead-letters/dead-letter-queries.js';
import {
  retryDeadLetter,
  skipDeadLetter,
  type DeadLetterDecision,
  type DeadLetterDesk,
} from '../../../apps/projector/src/dead-letters/resolve-dead-letter.js';
import { findLeader } from '../../../apps/projector/src/leadership.js';
import { readCheckpoint } from '@portal/read-model-core';
import { leadershipName } from '../../../apps/projector/src/run-projector.js';
import { arg, defineCommand, stringOption, type CommandInput } from '../cli/command.js';
import { usageFailure } from '../cli/failure.js';
import { clip, table, when } from '../cli/table.js';
import { deadLetterDesk } from './projection.js';

const STATES: readonly DeadLetterState[] = ['open', 'applied', 'skipped', 'passed'];
const MAX_LIMIT = 1000;

function limitOf(input: CommandInput, fallback: number): number {
  const text = stringOption(input, 'limit');
  if (text === undefined) return fallback;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw usageFailure(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

function letterJson(letter: DeadLetterRecord) {
  return {
    id: letter.id,
    state: letter.state,
    eventId: letter.eventId,
    type: letter.type,
    streamId: letter.streamId,
    revision: letter.revision,
    position: letter.position,
    error: letter.error,
    failedAt: letter.failedAt.toISOString(),
    resolution: letter.resolution && {
      ...letter.resolution,
      resolvedAt: letter.resolution.resolvedAt.toISOString(),
    },
  };
}

export const deadLettersListCommand = defineCommand({
  path: ['dead-letters', 'list'],
  positionals: [],
  options: {
    state: { type: 'string', value: STATES.join('|'), description: 'only dead letters in this state' },
    limit: {
      type: 'string',
      value: 'n',
      description: `at most this many, newest first (default 50, at most ${MAX_LIMIT})`,
    },
  },
  summary: 'events the projector could not apply, newest first, with where each stands',
  details: [
    'One row per failure (an event that failed again after a restart has several). State:',
    '  open     the checkpoint has not passed it: the projection is stopped before it',
    '  applied  an operator retried it and it applied (who and when are shown)',
    '  skipped  an operator skipped it, with the reason (rebuilds pass over it too)',
    '  passed   the projector applied it itself after a fix, or the event was resolved otherwise',
    'Changes nothing.',
  ].join('\n'),
  async run(context, input) {
    const state = stringOption(input, 'state');
    if (state !== undefined && !STATES.includes(state as DeadLetterState)) {
      throw usageFailure(`--state must be one of ${STATES.join(', ')}`);
    }
    const desk = await deadLetterDesk(context);
    const checkpoint = await readCheckpoint(desk.pool, { schema: desk.schema, name: desk.projection.name });
    const limit = limitOf(input, 50);
    // Filtered after reading: the state depends on the checkpoint, not on a column.
    const letters = (
      await listDeadLetters(
        desk.pool,
        { operationsSchema: desk.operationsSchema, projection: desk.projection.name },
        checkpoint,
        state === undefined ? limit : MAX_LIMIT,
      )
    )
      .filter((letter) => state === undefined || letter.state === state)
      .slice(0, limit);
    const json = { checkpoint: formatPosition(checkpoint), items: letters.map(letterJson) };
    if (letters.length === 0) {
      return { json, text: `no dead letters${state === undefined ? '' : ` in state ${state}`}` };
    }
    const rows = letters.map((letter) => [
      letter.id,
      letter.state,
      letter.type,
      `${letter.streamId}@${letter.revision}`,
      letter.position,
      when(letter.failedAt),
      letter.resolution
        ? clip(
            `${letter.resolution.action} by ${letter.resolution.operator}${letter.resolution.reason === null ? '' : `: ${letter.resolution.reason}`}`,
          )
        : clip(letter.error),
    ]);
    const text = table(
      ['id', 'state', 'type', 'stream', 'position', 'failed at', 'error / resolution'],
      rows,
    );
    return { json, text: `checkpoint ${json.checkpoint}\n${text}` };
  },
});

/** The decision as an operator reads it, with what to do next when no projector runs. */
async function decisionResult(desk: DeadLetterDesk, decision: DeadLetterDecision, operator: string) {
  const leader = await findLeader(desk.pool, leadershipName(desk.projection.name, desk.schema));
  const { letter } = decision;
  const json = {
    ...letterJson({ ...letter, state: decision.action }),
    action: decision.action,
    operator,
    checkpoint: formatPosition(decision.checkpoint),
    projectorRunning: leader !== null,
  };
  const next =
    leader === null
      ? 'No projector holds the projection lock: start one (a halted projector exited) and it goes on from there.'
      : 'The running projector goes on from there.';
  const what = decision.action === 'applied' ? 'applied' : 'skipped (not applied to any read model)';
  const text = [
    `dead letter ${letter.id}: event ${letter.eventId} (${letter.type}, ${letter.streamId}@${letter.revision}) ${what}.`,
    `The checkpoint is now ${json.checkpoint}; recorded as ${decision.action} by ${operator}.`,
    next,
  ].join('\n');
  return { json, text };
}

export const deadLettersRetryCommand = defineCommand({
  path: ['dead-letters', 'retry'],
  positionals: ['id'],
  options: {},
  summary: 'apply the event the projection stopped on again, after a fix',
  details: [
    "Applies the dead letter's event now with the projector's own code (run the console from the",
    'release the projector runs), in one transaction with the checkpoint and a resolution row',
    '(projector.dead_letter_resolutions: applied, by whom, when). Only the dead letter the projection',
    'stands right before can be retried. If applying fails again, nothing is recorded and the error',
    'is shown (exit 1). The projector continues from the new checkpoint once it runs.',
  ].join('\n'),
  async run(context, input) {
    const desk = await deadLetterDesk(context);
    const decision = await retryDeadLetter(desk, arg(input, 'id'), context.operator);
    return decisionResult(desk, decision, context.operator);
  },
});

export const deadLettersSkipCommand = defineCommand({
  path: ['dead-letters', 'skip'],
  positionals: ['id'],
  options: {
    reason: {
      type: 'string',
      value: 'text',
      description: 'why the event may be left out (required; kept for auditors)',
    },
  },
  summary: 'pass over the event the projection stopped on, recording why',
  details: [
    "Moves the checkpoint past the dead letter's event without applying it, and records the decision",
    'with --reason and your name in projector.dead_letter_resolutions in the same transaction: it is',
    'written once and never changed. No read model will show the event: no object change, no audit',
    'row, no change-feed entry or webhook; every later rebuild passes over it too. Only the dead',
    'letter the projection stands right before can be skipped.',
  ].join('\n'),
  async run(context, input) {
    const reason = stringOption(input, 'reason')?.trim() ?? '';
    if (reason === '')
      throw usageFailure('dead-letters skip: --reason "<why>" is required: auditors read it');
    const desk = await deadLetterDesk(context);
    const decision = await skipDeadLetter(desk, arg(input, 'id'), { operator: context.operator, reason });
    return decisionResult(desk, decision, context.operator);
  },
});
