import { revisionOfIfMatch, type BulkLine, type BulkResultLine } from '@portal/contracts';
import {
  changeObjects,
  createObjects,
  moveObject,
  type ChangeRequest,
  type CreateEntry,
} from '@portal/commands';
import { comparePositions, type Position } from '@portal/domain';
import type { Logger } from '@portal/platform';
import type { ApiDependencies } from '../dependencies.js';
import { commandContextOf } from '../commands/command-context.js';
import { createEntryOf, type CreateFrame, type MadeObject } from '../commands/create-entries.js';
import { idempotencyRequestHash } from '../http/idempotency.js';
import { failedCommand } from '../service/run-batch.js';
import type { KeyVerdict, LineKeys } from './line-idempotency.js';
import { updateCommandOf } from '../portal-items/update-command.js';

/** A line that parsed as a command. */
export interface ParsedLine {
  readonly line: number;
  readonly command: BulkLine;
}

export interface ChunkResult {
  /** One per line, in line order. */
  readonly results: readonly BulkResultLine[];
  /** The newest event written; `null` when none was. */
  readonly newest: Position | null;
}

type Outcome = Omit<BulkResultLine, 'line'>;

export interface ChunkFrame extends CreateFrame {
  readonly keys: LineKeys;
}

/**
 * Applies one chunk of a bulk request: creates together (`createObjects`, one `appendMany`), updates
 * together (`changeObjects`, another), moves one by one (structure operations of their organization,
 * docs/cross-stream-invariants.md). The reader guarantees that no object and no key appears twice in a
 * chunk, so nothing in it depends on another of its lines' results.
 */
export async function applyChunk(
  deps: ApiDependencies,
  frame: ChunkFrame,
  lines: readonly ParsedLine[],
): Promise<ChunkResult> {
  const keyed = lines.flatMap(({ command }) =>
    command.idempotencyKey === undefined
      ? []
      : [{ key: command.idempotencyKey, requestHash: idempotencyRequestHash(withoutKey(command)) }],
  );
  const verdicts = await frame.keys.claim(keyed);
  const outcomes: (Outcome | null)[] = lines.map(({ command }) => {
    const verdict = command.idempotencyKey === undefined ? undefined : verdicts.get(command.idempotencyKey);
    return verdict ? answerOf(verdict) : null;
  });
  const toRun = lines.flatMap((line, index) => (outcomes[index] === null ? [{ index, ...line }] : []));
  const positions: (Position | null)[] = [];
  await Promise.all([
    runCreates(deps, frame, toRun, outcomes, positions),
    runUpdates(deps, frame, toRun, outcomes, positions),
  ]);
  await runMoves(deps, frame, toRun, outcomes, positions);
  const results = lines.map(({ line }, index): BulkResultLine => ({
    line,
    ...(outcomes[index] ?? failed(frame.log, new Error('line not applied'))),
  }));
  await frame.keys.settle(
    lines.flatMap(({ command }, index) => {
      const outcome = outcomes[index];
      const key = command.idempotencyKey;
      return key !== undefined && outcome && outcome.status < 300 && !outcome.replayed
        ? [{ key, result: outcome }]
        : [];
    }),
    lines.flatMap(({ command }, index) => {
      const outcome = outcomes[index];
      const key = command.idempotencyKey;
      const claimedHere = key !== undefined && !verdicts.has(key);
      return claimedHere && (!outcome || outcome.status >= 300) ? [key] : [];
    }),
  );
  return { results, newest: newestOf(positions) };
}

function withoutKey(command: BulkLine): Omit<BulkLine, 'idempotencyKey'> {
  const { idempotencyKey: _key, ...rest } = command;
  return rest;
}

function answerOf(verdict: KeyVerdict): Outcome {
  switch (verdict.kind) {
    case 'replay':
      return { ...verdict.result, replayed: true };
    case 'reused':
      return {
        status: 422,
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'idempotencyKey was already used with a different command',
      };
    case 'in-progress':
      return {
        status: 409,
        code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
        message: 'a line with this idempotencyKey is still being applied',
      };
    default:
      return verdict satisfies never;
  }
}

function failed(log: Logger, error: unknown): Outcome {
  const { status, body } = failedCommand({ log }, error);
  return 'message' in body
    ? { status, message: body.message, ...(body.code === undefined ? {} : { code: body.code }) }
    : { status, message: 'internal error' };
}

type Runnable = ParsedLine & { readonly index: number };

async function runCreates(
  deps: ApiDependencies,
  frame: ChunkFrame,
  lines: readonly Runnable[],
  outcomes: (Outcome | null)[],
  positions: (Position | null)[],
): Promise<void> {
  const entries: { index: number; entry: CreateEntry<MadeObject> }[] = [];
  for (const { index, command } of lines) {
    if (command.type === 'update' || command.type === 'move') continue;
    try {
      entries.push({ index, entry: createEntryOf(deps, frame, command) });
    } catch (error) {
      outcomes[index] = failed(frame.log, error);
    }
  }
  if (entries.length === 0) return;
  const created = await createObjects(
    commandContextOf(deps),
    entries.map(({ entry }) => entry),
  );
  for (const [position, { index }] of entries.entries()) {
    const outcome = created[position];
    if (!outcome) continue;
    if (!outcome.ok) {
      outcomes[index] = failed(frame.log, outcome.error);
      continue;
    }
    positions.push(outcome.position);
    const { id, upload } = outcome.made;
    outcomes[index] = {
      status: 201,
      id,
      ...(upload === undefined
        ? {}
        : {
            upload: {
              bucket: upload.bucket,
              key: upload.key,
              uploadId: upload.uploadId,
              partSize: upload.partSize,
            },
          }),
    };
  }
}

async function runUpdates(
  deps: ApiDependencies,
  frame: ChunkFrame,
  lines: readonly Runnable[],
  outcomes: (Outcome | null)[],
  positions: (Position | null)[],
): Promise<void> {
  const requests: { index: number; request: ChangeRequest }[] = [];
  for (const { index, command } of lines) {
    if (command.type !== 'update') continue;
    requests.push({
      index,
      request: {
        id: command.id,
        caller: frame.caller,
        action: 'edit',
        metadata: frame.metadata,
        ...(command.ifMatch === undefined ? {} : { expectedRevision: revisionOfIfMatch(command.ifMatch) }),
        command: ({ object, placement }) =>
          updateCommandOf(object, command.body, placement.ancestorDeleted, deps.newId),
      },
    });
  }
  if (requests.length === 0) return;
  const changed = await changeObjects(
    commandContextOf(deps),
    requests.map(({ request }) => request),
  );
  for (const [position, { index, request }] of requests.entries()) {
    const outcome = changed[position];
    if (!outcome) continue;
    if (!outcome.ok) {
      outcomes[index] = failed(frame.log, outcome.error);
      continue;
    }
    positions.push(outcome.position);
    outcomes[index] = { status: 200, id: request.id };
  }
}

async function runMoves(
  deps: ApiDependencies,
  frame: ChunkFrame,
  lines: readonly Runnable[],
  outcomes: (Outcome | null)[],
  positions: (Position | null)[],
): Promise<void> {
  for (const { index, command } of lines) {
    if (command.type !== 'move') continue;
    try {
      const result = await moveObject(commandContextOf(deps), {
        id: command.id,
        toParentId: command.body.parentId,
        caller: frame.caller,
        metadata: frame.metadata,
        ...(command.ifMatch === undefined ? {} : { expectedRevision: revisionOfIfMatch(command.ifMatch) }),
      });
      positions.push(result.position);
      outcomes[index] = { status: 200, id: command.id };
    } catch (error) {
      outcomes[index] = failed(frame.log, error);
    }
  }
}

function newestOf(positions: readonly (Position | null)[]): Position | null {
  let newest: Position | null = null;
  for (const position of positions) {
    if (position && (newest === null || comparePositions(position, newest) > 0)) newest = position;
  }
  return newest;
}
