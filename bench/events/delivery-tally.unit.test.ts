import { describe, expect, it } from 'vitest';
import { comparePositions, parsePosition, type Position } from '@portal/domain';
import { DeliveryTally } from './delivery-tally.js';

/** Checkpoints as the bench's LISTEN records them, fed by hand. */
class Arrivals {
  private readonly seen: { position: Position; at: number }[] = [];
  private readonly listeners: (() => void)[] = [];

  arrive(position: string, at: number): void {
    const parsed = parsePosition(position);
    if (!parsed) throw new Error(position);
    this.seen.push({ position: parsed, at });
    for (const listener of this.listeners) listener();
  }

  projectedAt(position: Position): number | undefined {
    return this.seen.find((arrival) => comparePositions(arrival.position, position) >= 0)?.at;
  }

  onArrival(listener: () => void): void {
    this.listeners.push(listener);
  }
}

describe('DeliveryTally', () => {
  it('measures from the checkpoint that covered the change, only inside the window', () => {
    const arrivals = new Arrivals();
    const tally = new DeliveryTally(arrivals);
    tally.measure({ from: 100, until: 200 });
    arrivals.arrive('5.2', 90); // before the window: not measured
    arrivals.arrive('6.4', 150);
    tally.receive('5.1', 95);
    tally.receive('6.3', 160); // covered by the checkpoint at 6.4
    tally.receive('6.3', 175);
    expect(tally.deliveries).toBe(2);
    expect(tally.latency.summary()).toMatchObject({ count: 2, max: 25 });
    expect(tally.measuredChanges(2)).toEqual({ count: 1, incomplete: 0 });
    expect(tally.measuredChanges(3)).toEqual({ count: 1, incomplete: 1 });
    expect(tally.changesSeen).toBe(2);
  });

  it('settles a receipt read before its checkpoint when the checkpoint arrives, as early', () => {
    const arrivals = new Arrivals();
    const tally = new DeliveryTally(arrivals);
    tally.measure({ from: 0, until: 1_000 });
    tally.receive('7.1', 10);
    expect(tally.deliveries).toBe(0);
    expect(tally.changesSeen).toBe(1);
    arrivals.arrive('7.1', 12);
    expect(tally.deliveries).toBe(1);
    expect(tally.latency.early).toBe(1);
    expect(tally.measuredChanges(1)).toEqual({ count: 1, incomplete: 0 });
  });
});
