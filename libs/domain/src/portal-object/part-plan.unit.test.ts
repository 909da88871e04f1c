import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { DEFAULT_PART_SIZE, MAX_PARTS, MIN_PART_SIZE, planParts } from './part-plan.js';

const MIB = 1024 ** 2;
const GIB = 1024 * MIB;

describe('planParts', () => {
  it('uses 64 MiB parts by default and counts the last, smaller part', () => {
    expect(planParts({ size: 200 * MIB })).toEqual({ partSize: DEFAULT_PART_SIZE, partCount: 4 });
    expect(planParts({ size: 128 * MIB })).toEqual({ partSize: DEFAULT_PART_SIZE, partCount: 2 });
  });

  it('gives a tiny or empty file one part', () => {
    expect(planParts({ size: 1 })).toEqual({ partSize: DEFAULT_PART_SIZE, partCount: 1 });
  });

  it('leaves the count open when the size is unknown', () => {
    expect(planParts({})).toEqual({ partSize: DEFAULT_PART_SIZE, partCount: null });
    expect(planParts({ partSize: 8 * MIB })).toEqual({ partSize: 8 * MIB, partCount: null });
  });

  it('grows the part size in whole MiB when the default would need more than 10,000 parts', () => {
    const size = 1024 * GIB; // 1 TiB: 16,384 parts of 64 MiB
    const plan = planParts({ size });
    expect(plan.partSize % MIB).toBe(0);
    expect(plan.partCount).toBeLessThanOrEqual(MAX_PARTS);
    expect(plan.partSize * (plan.partCount ?? 0)).toBeGreaterThanOrEqual(size);
    expect(plan.partSize).toBe(105 * MIB);
  });

  it('keeps a part size the client asks for', () => {
    expect(planParts({ size: 20 * MIB, partSize: MIN_PART_SIZE })).toEqual({
      partSize: 5 * MIB,
      partCount: 4,
    });
  });

  it('refuses a size that would need more than 10,000 parts of the asked size, naming a size that works', () => {
    const run = () => planParts({ size: 60 * GIB, partSize: 5 * MIB });
    expect(run).toThrow(DomainError);
    expect(run).toThrow(
      /needs 12288 parts, more than the 10000 allowed; use a part size of at least 6442451 bytes/,
    );
  });

  it('refuses part sizes outside 5 MiB to 5 GiB', () => {
    expect(() => planParts({ partSize: 5 * MIB - 1 })).toThrow(
      /between 5242880 \(5 MiB\) and 5368709120 \(5 GiB\)/,
    );
    expect(() => planParts({ partSize: 5 * GIB + 1 })).toThrow(DomainError);
  });
});
