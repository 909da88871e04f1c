import type { Request, Response } from 'express';
import { parsePosition, type Position } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { minPositionGate, type ProjectionProgress } from './consistency.js';
import { HttpProblem } from './problem.js';

function position(text: string): Position {
  const parsed = parsePosition(text);
  if (!parsed) throw new Error(`not a position: ${text}`);
  return parsed;
}

/** Runs the gate for one `X-Min-Position` and answers what it passed to `next`, and the waits it made. */
async function gate(
  header: string,
  state: { checkpoint: string; lastWritten: string; projectsInTime?: boolean },
): Promise<{ passed: unknown; waits: number; storeAsked: number }> {
  let waits = 0;
  let storeAsked = 0;
  const projection: ProjectionProgress = {
    current: () => position(state.checkpoint),
    waitFor: () => {
      waits += 1;
      return Promise.resolve(state.projectsInTime ?? true);
    },
  };
  const eventStore = {
    lastWrittenPosition: () => {
      storeAsked += 1;
      return Promise.resolve(position(state.lastWritten));
    },
  };
  const req = {
    header: (name: string) => (name === 'x-min-position' ? header : undefined),
  } as unknown as Request;
  const passed = await new Promise((resolve) => {
    void minPositionGate(projection, eventStore, 5_000)(req, {} as unknown as Response, resolve);
  });
  return { passed, waits, storeAsked };
}

describe('X-Min-Position', () => {
  it('passes at once when the read models already include the position', async () => {
    expect(await gate('10.5', { checkpoint: '12.1', lastWritten: '12.1' })).toEqual({
      passed: undefined,
      waits: 0,
      storeAsked: 0,
    });
  });

  it('waits for a written position the read models have not reached', async () => {
    expect(await gate('12.3', { checkpoint: '12.1', lastWritten: '13.0' })).toEqual({
      passed: undefined,
      waits: 1,
      storeAsked: 1,
    });
  });

  it('answers 503 with Retry-After when a written position is not projected in time', async () => {
    const { passed } = await gate('12.3', { checkpoint: '12.1', lastWritten: '12.3', projectsInTime: false });
    expect(passed).toBeInstanceOf(HttpProblem);
    expect(passed).toMatchObject({ status: 503, code: 'NOT_CAUGHT_UP', headers: { 'Retry-After': '1' } });
  });

  it('answers 400 at once, without waiting, for a position beyond the newest event', async () => {
    const { passed, waits } = await gate('99999999999.99999999999', {
      checkpoint: '12.1',
      lastWritten: '13.0',
    });
    expect(waits).toBe(0);
    expect(passed).toMatchObject({ status: 400, code: 'POSITION_NOT_REACHABLE' });
    expect((await gate('13.1', { checkpoint: '12.1', lastWritten: '13.0' })).passed).toMatchObject({
      status: 400,
    });
  });

  it('answers 400 for a value that is no position at all', async () => {
    expect((await gate('soon', { checkpoint: '1.1', lastWritten: '1.1' })).passed).toMatchObject({
      status: 400,
      code: 'INVALID_POSITION',
    });
  });
});
