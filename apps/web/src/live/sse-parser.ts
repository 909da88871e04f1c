/**
 * Server-Sent Events, read as the HTML standard reads them: `id:`, `event:`, `data:` (joined by
 * newlines), `retry:`; comments skipped; a blank line ends an event. The explorer reads the feed
 * with fetch rather than EventSource, because the feed names each event by its type and EventSource
 * delivers named events only to listeners registered for that name in advance.
 */
export interface SseEvent {
  /** The last `id:` seen so far on the stream (an event without one keeps the previous). */
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

export class SseParser {
  private buffer = '';
  private lastId: string | null = null;
  private event = '';
  private data: string[] = [];
  /** The reconnection delay the server asked for with `retry:`, if it did. */
  retryMs: number | null = null;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
    while (newline >= 0 && !(this.buffer[newline] === '\r' && newline === this.buffer.length - 1)) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer.startsWith('\r\n', newline) ? 2 : 1));
      this.line(line, events);
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0)
        events.push({ id: this.lastId, event: this.event || 'message', data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    switch (field) {
      case 'id':
        // An id with NUL is ignored, as the standard says.
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
  }
}
