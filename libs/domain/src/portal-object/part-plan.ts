import { DomainError } from '../errors.js';

const MIB = 1024 ** 2;

/** S3's multipart rules: parts of 5 MiB to 5 GiB (the last may be smaller), at most 10,000. */
export const MIN_PART_SIZE = 5 * MIB;
export const MAX_PART_SIZE = 5 * 1024 * MIB;
export const DEFAULT_PART_SIZE = 64 * MIB;
export const MAX_PARTS = 10_000;

export interface PartPlan {
  readonly partSize: number;
  /** `null` when the size is unknown: the client may upload up to `MAX_PARTS` parts. */
  readonly partCount: number | null;
}

/**
 * Cuts a file into parts. A size alone picks the default part size, grown in whole MiB when the file
 * would need more than 10,000 parts; a part size the client asks for is kept, and a size it cannot
 * cover in 10,000 parts is refused.
 */
export function planParts(request: { readonly size?: number; readonly partSize?: number }): PartPlan {
  const { size, partSize } = request;
  if (partSize !== undefined && (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE)) {
    throw new DomainError(
      'INVALID_COMMAND',
      `partSize must be between ${MIN_PART_SIZE} (5 MiB) and ${MAX_PART_SIZE} (5 GiB) bytes`,
    );
  }
  if (size === undefined) return { partSize: partSize ?? DEFAULT_PART_SIZE, partCount: null };
  const chosen = partSize ?? Math.max(DEFAULT_PART_SIZE, Math.ceil(size / MAX_PARTS / MIB) * MIB);
  const partCount = Math.max(1, Math.ceil(size / chosen));
  if (partCount > MAX_PARTS || chosen > MAX_PART_SIZE) {
    throw new DomainError(
      'INVALID_COMMAND',
      `a file of ${size} bytes in parts of ${chosen} bytes needs ${partCount} parts, more than the ` +
        `${MAX_PARTS} allowed; use a part size of at least ${Math.ceil(size / MAX_PARTS)} bytes`,
    );
  }
  return { partSize: chosen, partCount };
}
