/**
 * How a file is cut into parts for S3's multipart upload, which parts a resumed upload still has to
 * send, and the progress figures (bytes, rate, time left) shown while it runs. Pure: unit-tested in
 * plan.unit.test.ts.
 */
export const MIB = 1024 ** 2;
/** S3's smallest part (all but the last); the API refuses less. */
export const MIN_PART_BYTES = 5 * MIB;
const API_DEFAULT_PART_BYTES = 64 * MIB;
/** Parts a small file is cut into at least, so they can travel side by side. */
const TARGET_PARTS = 16;

/**
 * The part size to ask for: a file up to 16 × 64 MiB is cut into about 16 parts of at least 5 MiB,
 * whole MiB each, so even a small file uploads in parallel. Larger files take the API's default
 * (64 MiB, grown by the API itself when 10,000 parts would not hold the file): `undefined`.
 */
export function choosePartSize(size: number): number | undefined {
  if (size > TARGET_PARTS * API_DEFAULT_PART_BYTES) return undefined;
  const even = Math.ceil(size / TARGET_PARTS / MIB) * MIB;
  return Math.max(MIN_PART_BYTES, even);
}

export interface PartRange {
  readonly partNumber: number;
  /** First byte, inclusive. */
  readonly start: number;
  /** Last byte, exclusive. */
  readonly end: number;
}

/** Parts 1..n of `partSize` bytes, the last one shorter; an empty file is one empty part. */
export function planParts(size: number, partSize: number): PartRange[] {
  if (!Number.isInteger(partSize) || partSize <= 0)
    throw new Error(`part size must be positive: ${partSize}`);
  const count = Math.max(1, Math.ceil(size / partSize));
  return Array.from({ length: count }, (_, index) => ({
    partNumber: index + 1,
    start: index * partSize,
    end: Math.min(size, (index + 1) * partSize),
  }));
}

export interface ReceivedPart {
  readonly partNumber: number;
  readonly size: number;
  readonly etag: string;
}

/**
 * What a resumed upload must still send: every planned part the object store does not hold whole.
 * A part held with another size (cut short by a crash) is sent again; S3 keeps the last one.
 */
export function partsToSend(plan: readonly PartRange[], received: readonly ReceivedPart[]): PartRange[] {
  const held = new Map(received.map((part) => [part.partNumber, part.size]));
  return plan.filter((part) => held.get(part.partNumber) !== part.end - part.start);
}

export interface ProgressSnapshot {
  readonly bytes: number;
  readonly total: number;
  /** Bytes per second over the last few seconds; null until two samples are apart. */
  readonly rate: number | null;
  /** Seconds left at that rate; null while the rate is unknown or zero. */
  readonly etaSeconds: number | null;
}

/**
 * Rate and time left from (time, bytes done) samples over a sliding window, so a stall shows at once
 * and one slow part does not hide the whole upload's pace.
 */
export class ProgressMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  constructor(
    readonly total: number,
    private readonly windowMs = 5_000,
  ) {}

  record(bytes: number, at: number): ProgressSnapshot {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= at - this.windowMs) this.samples.shift();
    const first = this.samples[0];
    const elapsed = first ? (at - first.at) / 1000 : 0;
    const rate = first && elapsed > 0 ? Math.max(0, (bytes - first.bytes) / elapsed) : null;
    const left = Math.max(0, this.total - bytes);
    return {
      bytes,
      total: this.total,
      rate,
      etaSeconds: rate === null || rate === 0 ? (left === 0 ? 0 : null) : left / rate,
    };
  }
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit] ?? 'B'}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
