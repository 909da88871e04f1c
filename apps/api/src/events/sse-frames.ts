/**
 * The text of Server-Sent Events (WHATWG HTML §9.2). A frame ends with a blank line; a field value must
 * not contain a line break, which would end the field early and let data forge fields of its own.
 */

export interface SseEvent {
  /** `id:`; the client sends it back as `Last-Event-ID`. An empty id clears the client's resume point. */
  readonly id?: string;
  /** `event:`; absent means the default `message`. */
  readonly event?: string;
  /** `data:`; each line of it becomes one `data:` line, so the client reads it back unchanged. */
  readonly data: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new Error(`an SSE ${field} cannot contain a line break`);
  return value;
}

export function eventFrame(event: SseEvent): string {
  let frame = '';
  if (event.id !== undefined) frame += `id: ${singleLine('id', event.id)}\n`;
  if (event.event !== undefined) frame += `event: ${singleLine('event', event.event)}\n`;
  for (const line of event.data.split(LINE_BREAK)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** A comment line: clients ignore it; it keeps proxies and idle timeouts from closing the stream. */
export function commentFrame(text: string): string {
  return `: ${singleLine('comment', text)}\n\n`;
}

/** How long the client waits before it reconnects after the stream ends. */
export function retryFrame(milliseconds: number): string {
  if (!Number.isInteger(milliseconds) || milliseconds < 0) throw new Error('retry must be a whole number');
  return `retry: ${milliseconds}\n\n`;
}
