import { describe, expect, it } from 'vitest';
import { changeOf } from './feed.js';
import { feedHeaders, MAX_RETRY_MS, reconnectDelay } from './reconnect.js';
import { SseParser } from './sse-parser.js';

describe('SseParser', () => {
  it('reads named events with ids, across chunk borders and line endings', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 2000\n\n: connected\n\nid: 1.1\nevent: Catalog')).toEqual([]);
    expect(parser.retryMs).toBe(2000);
    const events = parser.push('Created\ndata: {"a":1}\r\n\r\nid: 2.2\r\nevent: reset\rdata: x\rdata: y\r');
    expect(events).toEqual([{ id: '1.1', event: 'CatalogCreated', data: '{"a":1}' }]);
    // The held \r and this \n are one line ending (\r\n); the next \n is the blank line.
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '2.2', event: 'reset', data: 'x\ny' }]);
  });

  it('keeps the last id for events without one, and names unnamed events message', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7.7\ndata: a\n\ndata: b\n\n')).toEqual([
      { id: '7.7', event: 'message', data: 'a' },
      { id: '7.7', event: 'message', data: 'b' },
    ]);
  });
});

describe('resuming the feed', () => {
  it('sends Last-Event-ID once an event was received', () => {
    expect(feedHeaders(null)).toEqual({ accept: 'text/event-stream' });
    expect(feedHeaders('123.456')).toEqual({ accept: 'text/event-stream', 'last-event-id': '123.456' });
  });

  it("waits the server's retry after a normal end, and backs off with jitter after failures", () => {
    expect(reconnectDelay(0, 2000)).toBe(2000);
    expect(reconnectDelay(0, null)).toBe(2000);
    expect(reconnectDelay(1, 1000, () => 0)).toBe(1000);
    expect(reconnectDelay(1, 1000, () => 1)).toBe(2000);
    expect(reconnectDelay(3, 1000, () => 1)).toBe(8000);
    expect(reconnectDelay(50, 1000, () => 1)).toBe(MAX_RETRY_MS);
  });

  it('ignores data the contract does not describe instead of failing the stream', () => {
    expect(changeOf('not json')).toBeNull();
    expect(changeOf('{"objectId":"x"}')).toBeNull();
  });
});
