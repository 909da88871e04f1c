import { describe, expect, it } from 'vitest';
import { commentFrame, eventFrame, retryFrame } from './sse-frames.js';

describe('SSE framing', () => {
  it('writes id, event and data lines and ends the frame with a blank line', () => {
    expect(eventFrame({ id: '12.12', event: 'PortalObjectUpdated', data: '{"a":1}' })).toBe(
      'id: 12.12\nevent: PortalObjectUpdated\ndata: {"a":1}\n\n',
    );
  });

  it('omits the fields it is not given', () => {
    expect(eventFrame({ data: 'x' })).toBe('data: x\n\n');
  });

  it('writes an empty id so the client forgets its resume point', () => {
    expect(eventFrame({ id: '', event: 'reset', data: '{}' })).toBe('id: \nevent: reset\ndata: {}\n\n');
  });

  it('splits multi-line data into one data line per line, whatever the line break', () => {
    expect(eventFrame({ data: 'one\ntwo\r\nthree\rfour' })).toBe(
      'data: one\ndata: two\ndata: three\ndata: four\n\n',
    );
  });

  it('keeps JSON on one data line: JSON.stringify escapes line breaks inside strings', () => {
    const data = JSON.stringify({ title: 'line\nbreak' });
    expect(eventFrame({ data })).toBe(`data: ${data}\n\n`);
    expect(eventFrame({ data }).split('\n')).toHaveLength(3);
  });

  it('refuses a line break in an id, an event name or a comment, which would forge fields', () => {
    expect(() => eventFrame({ id: '1\ndata: forged', data: 'x' })).toThrow(/id cannot contain a line break/);
    expect(() => eventFrame({ event: 'a\rb', data: 'x' })).toThrow(/event cannot contain a line break/);
    expect(() => commentFrame('a\nb')).toThrow(/comment/);
  });

  it('writes comments and the retry delay', () => {
    expect(commentFrame('heartbeat')).toBe(': heartbeat\n\n');
    expect(retryFrame(2000)).toBe('retry: 2000\n\n');
    expect(() => retryFrame(-1)).toThrow();
    expect(() => retryFrame(1.5)).toThrow();
  });
});
