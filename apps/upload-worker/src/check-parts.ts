import type { UploadedPart, UploadPlan } from '@portal/domain';
import type { StoredPart } from '@portal/uploads';
import { formatBytes } from './byte-size.js';

export interface CompletionPart {
  readonly partNumber: number;
  /** As the object store reports it (quoted). */
  readonly etag: string;
  readonly size: number;
}

export type PartCheck =
  | { readonly ok: true; readonly parts: readonly CompletionPart[]; readonly totalSize: number }
  | { readonly ok: false; readonly statusMessage: string };

export interface PartCheckInput {
  readonly itemId: string;
  readonly plan: Pick<UploadPlan, 'size' | 'partCount' | 'partSize'>;
  /** The parts the completion request named; `null` to use what the object store holds. */
  readonly requested: readonly UploadedPart[] | null;
  readonly stored: readonly StoredPart[];
}

/** ETags compare without their quotes: clients copy them from headers with or without. */
export function sameEtag(a: string, b: string): boolean {
  return unquoteEtag(a) === unquoteEtag(b);
}

export function unquoteEtag(etag: string): string {
  return etag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').toLowerCase();
}

/**
 * Decides which parts make the file, before anything irreversible happens in the object store: a
 * completion refused here leaves the upload open, so the client can upload what is missing and
 * complete again. Every refusal says what to do in words a person acts on.
 */
export function checkParts(input: PartCheckInput): PartCheck {
  const { itemId, plan, requested, stored } = input;
  const again = `POST /api/v1/portal/items/${itemId}/upload/urls gives fresh URLs`;
  if (stored.length === 0) {
    return refuse(`no part has been uploaded yet: upload the parts (${again}) and complete again`);
  }
  const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
  let chosen: CompletionPart[];
  if (requested === null) {
    const missing =
      plan.partCount === null ? [] : numbersUpTo(plan.partCount).filter((n) => !byNumber.has(n));
    if (missing.length > 0 && plan.partCount !== null) {
      return refuse(
        `${describeParts(missing)} of ${plan.partCount} ${isOrAre(missing)} missing: ${uploadAgain(missing, again)}`,
      );
    }
    // Parts beyond the planned count are left out: S3 discards parts a completion does not name.
    chosen =
      plan.partCount === null
        ? [...stored]
        : stored.filter((part) => part.partNumber <= (plan.partCount ?? 0));
  } else {
    const named = [...requested].sort((a, b) => a.partNumber - b.partNumber);
    const missing = named.filter((part) => !byNumber.has(part.partNumber)).map((part) => part.partNumber);
    if (missing.length > 0) {
      return refuse(`${describeParts(missing)} ${isOrAre(missing)} missing: ${uploadAgain(missing, again)}`);
    }
    const differing = named.filter((part) => !sameEtag(part.etag, byNumber.get(part.partNumber)?.etag ?? ''));
    const first = differing[0];
    if (first) {
      const held = byNumber.get(first.partNumber)?.etag ?? '';
      return refuse(
        `part ${first.partNumber} was named with ETag ${first.etag}, but object storage holds ETag ${held}` +
          (differing.length > 1 ? ` (and ${differing.length - 1} more parts differ)` : '') +
          `: complete with the ETags the part uploads answered, or upload the parts again (${again})`,
      );
    }
    chosen = named.flatMap((part) => {
      const held = byNumber.get(part.partNumber);
      return held ? [held] : [];
    });
  }
  const parts = chosen.map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  const totalSize = parts.reduce((sum, part) => sum + part.size, 0);
  if (plan.size !== null && totalSize !== plan.size) {
    return refuse(sizeMismatch(plan, parts, totalSize, again));
  }
  return { ok: true, parts, totalSize };
}

function refuse(statusMessage: string): PartCheck {
  return { ok: false, statusMessage };
}

function numbersUpTo(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index + 1);
}

const LISTED_AT_MOST = 10;

/** `part 3`, `parts 3, 5 and 9`, `parts 1, 2, … and 40 more`. */
function describeParts(numbers: readonly number[]): string {
  if (numbers.length === 1) return `part ${numbers[0] ?? ''}`;
  const shown = numbers.slice(0, LISTED_AT_MOST);
  const rest = numbers.length - shown.length;
  if (rest > 0) return `parts ${shown.join(', ')} and ${rest} more`;
  return `parts ${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}

function isOrAre(numbers: readonly number[]): string {
  return numbers.length === 1 ? 'is' : 'are';
}

function uploadAgain(numbers: readonly number[], again: string): string {
  return `upload ${numbers.length === 1 ? 'it' : 'them'} again (${again}) and complete again`;
}

function sizeMismatch(
  plan: PartCheckInput['plan'],
  parts: readonly CompletionPart[],
  totalSize: number,
  again: string,
): string {
  const declared = plan.size ?? 0;
  const received = `received ${formatBytes(totalSize)} of ${formatBytes(declared)} (${totalSize} of ${declared} bytes)`;
  const wrong = plan.partCount === null ? [] : wronglySized(plan.partSize, plan.partCount, declared, parts);
  const first = wrong[0];
  if (first) {
    return (
      `${received}: part ${first.partNumber} holds ${first.size} bytes, ${first.expected} expected` +
      (wrong.length > 1 ? ` (and ${wrong.length - 1} more parts differ)` : '') +
      `; upload the parts again with the planned sizes (${again}) and complete again`
    );
  }
  return `${received}: upload the parts that make up the whole file (${again}) and complete again`;
}

/** Parts whose size differs from the plan: every part holds `partSize` bytes but the last, which holds the rest. */
function wronglySized(
  partSize: number,
  partCount: number,
  size: number,
  parts: readonly CompletionPart[],
): { partNumber: number; size: number; expected: number }[] {
  return parts.flatMap((part) => {
    const expected = part.partNumber < partCount ? partSize : size - partSize * (partCount - 1);
    return part.size === expected ? [] : [{ partNumber: part.partNumber, size: part.size, expected }];
  });
}
