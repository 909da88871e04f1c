/** One line of an NDJSON body, numbered from 1 as an editor numbers them. */
export type RawLine =
  | { readonly line: number; readonly kind: 'text'; readonly text: string }
  | { readonly line: number; readonly kind: 'too-long' }
  | { readonly line: number; readonly kind: 'not-utf8' };

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Splits a byte stream into lines without holding more than one line (at most `maxLineBytes`) and the
 * chunk being read: a line longer than that is reported as `too-long` and skipped to its end without
 * being kept. Blank lines are skipped (their numbers are not reused); a trailing `\r` is dropped, so
 * CRLF files read the same. The last line needs no newline.
 */
export async function* ndjsonLines(
  body: AsyncIterable<Buffer | string>,
  maxLineBytes: number,
): AsyncGenerator<RawLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): RawLine | null => {
    line += 1;
    const result = tooLong
      ? ({ line, kind: 'too-long' } as const)
      : decode(line, Buffer.concat(parts, length));
    parts = [];
    length = 0;
    tooLong = false;
    return result;
  };
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE, start); ; newline = bytes.indexOf(NEWLINE, start)) {
      const end = newline === -1 ? bytes.length : newline;
      if (!tooLong) {
        if (length + (end - start) > maxLineBytes) {
          tooLong = true;
          parts = [];
          length = 0;
        } else if (end > start) {
          parts.push(bytes.subarray(start, end));
          length += end - start;
        }
      }
      if (newline === -1) break;
      const result = finish();
      if (result) yield result;
      start = newline + 1;
    }
  }
  if (length > 0 || tooLong) {
    const result = finish();
    if (result) yield result;
  }
}

function decode(line: number, bytes: Buffer): RawLine | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { line, kind: 'not-utf8' };
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return text.trim() === '' ? null : { line, kind: 'text', text };
}
