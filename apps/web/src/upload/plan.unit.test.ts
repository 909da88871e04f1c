import { describe, expect, it } from 'vitest';
import { choosePartSize, formatBytes, MIB, partsToSend, planParts, ProgressMeter } from './plan.js';

describe('upload plan', () => {
  it('cuts small files into parts of at least 5 MiB and leaves large ones to the API', () => {
    expect(choosePartSize(20 * MIB)).toBe(5 * MIB);
    expect(choosePartSize(1)).toBe(5 * MIB);
    expect(choosePartSize(160 * MIB)).toBe(10 * MIB);
    expect(choosePartSize(1024 * MIB)).toBe(64 * MIB);
    expect(choosePartSize(1024 * MIB + 1)).toBeUndefined();
  });

  it('plans whole parts and a shorter last one, covering every byte once', () => {
    const plan = planParts(20 * MIB + 3, 5 * MIB);
    expect(plan).toHaveLength(5);
    expect(plan[0]).toEqual({ partNumber: 1, start: 0, end: 5 * MIB });
    expect(plan.at(-1)).toEqual({ partNumber: 5, start: 20 * MIB, end: 20 * MIB + 3 });
    for (const [index, part] of plan.entries())
      expect(part.start).toBe(index === 0 ? 0 : plan[index - 1]?.end);
    expect(planParts(0, 5 * MIB)).toEqual([{ partNumber: 1, start: 0, end: 0 }]);
    expect(planParts(5 * MIB, 5 * MIB)).toHaveLength(1);
    expect(() => planParts(10, 0)).toThrow(/positive/);
  });

  it('resends only the parts the store does not hold whole', () => {
    const plan = planParts(20 * MIB, 5 * MIB);
    const received = [
      { partNumber: 1, size: 5 * MIB, etag: '"a"' },
      { partNumber: 3, size: 1000, etag: '"c"' },
      { partNumber: 4, size: 5 * MIB, etag: '"d"' },
    ];
    expect(partsToSend(plan, received).map((part) => part.partNumber)).toEqual([2, 3]);
    expect(partsToSend(plan, [])).toEqual(plan);
  });
});

describe('progress meter', () => {
  it('gives the rate over its window and the time left at that rate', () => {
    const meter = new ProgressMeter(100 * MIB, 5_000);
    expect(meter.record(0, 0)).toEqual({ bytes: 0, total: 100 * MIB, rate: null, etaSeconds: null });
    const second = meter.record(10 * MIB, 1_000);
    expect(second.rate).toBe(10 * MIB);
    expect(second.etaSeconds).toBe(9);
    // After the window slides past a stall, the rate shows the stall.
    meter.record(20 * MIB, 2_000);
    meter.record(20 * MIB, 8_000);
    const stalled = meter.record(20 * MIB, 9_000);
    expect(stalled.rate).toBe(0);
    expect(stalled.etaSeconds).toBeNull();
    expect(meter.record(100 * MIB, 10_000).etaSeconds).toBe(0);
  });

  it('formats bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(20 * MIB)).toBe('20.0 MiB');
  });
});
