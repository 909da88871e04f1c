import type { Response } from 'express';

/**
 * The most characters one write carries. V8 gives every string over about 128 KB memory pages of its
 * own, mapped and zeroed when it is made and unmapped when it is collected (a buffer that large is
 * mapped alike). A STAC page of 100 items (120–150 KB) built as one text and encoded as one buffer cost
 * the API a tenth more CPU than the same page sent in pieces, and a page of 1,000 a third more
 * (docs/stac.md, "Stored item JSON"). 32,768 characters stay under that size even as two-byte strings.
 */
export const MAX_WRITE_CHARACTERS = 32_768;

/**
 * The parts joined into texts of at most `MAX_WRITE_CHARACTERS` each, in order; a part longer than
 * that is a text of its own (it is one already: cutting it would only add copies); empty parts add
 * nothing.
 */
export function writesOf(parts: readonly string[]): string[] {
  const writes: string[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  for (const part of parts) {
    if (part === '') continue;
    if (pendingLength > 0 && pendingLength + part.length > MAX_WRITE_CHARACTERS) {
      writes.push(pending.join(''));
      pending = [];
      pendingLength = 0;
    }
    pending.push(part);
    pendingLength += part.length;
  }
  if (pending.length > 0) writes.push(pending.join(''));
  return writes;
}

/**
 * Answers JSON already serialized, given as the parts it is the concatenation of (a page of items:
 * `MAX_WRITE_CHARACTERS` says why parts). Its length is counted from the bytes; the writes go out
 * together (one `writev`). What express's `send` adds (a freshness check, the content type parsed and
 * set again) an answer without a validator of its own does not need: no `ETag`, so never a 304. A HEAD
 * gets no body (node drops the writes) and the same `Content-Length`.
 */
export function sendJson(res: Response, type: string, parts: readonly string[]): void {
  const writes = writesOf(parts);
  let length = 0;
  for (const text of writes) length += Buffer.byteLength(text);
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', length);
  res.cork();
  for (const text of writes) res.write(text);
  // `end` uncorks: the writes leave together.
  res.end();
}
