import { describe, expect, it } from 'vitest';
import type { Position } from '@portal/domain';
import { liveBatch, SseConnection, type ChangeFrame, type SseSink } from './sse-connection.js';

/** A response whose client reads nothing unless told to: every byte written stays buffered. */
class FakeSink implements SseSink {
  readonly written: string[] = [];
  writableLength = 0;
  ended = false;
  destroyed = false;

  write(chunk: string | Uint8Array): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.written.push(text);
    this.writableLength += Buffer.byteLength(text);
    return true;
  }

  /** The client caught up: the kernel took everything. */
  drain(): void {
    this.writableLength = 0;
  }

  end(): void {
    this.ended = true;
  }

  destroy(): void {
    this.destroyed = true;
  }
}

const frame = (n: number, size = 10) => `${String(n).padEnd(size, '.')}\n\n`;
const positionOf = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const change = (n: number): ChangeFrame => ({ position: positionOf(n), frame: `change-${n}\n\n` });

describe('SseConnection buffer policy', () => {
  it('writes frames while the client keeps up', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 100);
    for (let n = 0; n < 50; n += 1) {
      expect(connection.send(frame(n))).toBe(true);
      sink.drain();
    }
    expect(sink.written).toHaveLength(50);
    expect(sink.destroyed).toBe(false);
    expect(connection.outcome).toBe('open');
  });

  it('drops a client whose unsent bytes pass the limit instead of buffering more', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 100);
    const results: boolean[] = [];
    for (let n = 0; n < 20; n += 1) results.push(connection.send(frame(n)));
    // 12 bytes a frame: the 9th pushes the buffer to 108 > 100.
    expect(results.indexOf(false)).toBe(8);
    expect(sink.written).toHaveLength(9);
    expect(sink.destroyed).toBe(true);
    expect(connection.outcome).toBe('dropped');
    expect(connection.isOpen).toBe(false);
  });

  it('allows exactly the limit', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 24);
    expect(connection.send(frame(1))).toBe(true);
    expect(connection.send(frame(2))).toBe(true);
    expect(sink.destroyed).toBe(false);
  });

  it('holds live changes during a replay and sends only those the replay did not send', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 10_000);
    connection.hold();
    connection.deliver(liveBatch([change(5), change(6)]));
    connection.sendChange(change(4));
    connection.sendChange(change(5));
    connection.deliver(liveBatch([change(7)]));
    expect(sink.written).toEqual(['change-4\n\n', 'change-5\n\n']);
    connection.release();
    // The held ones in one write, without the one the replay sent.
    expect(sink.written.at(-1)).toBe('change-6\n\nchange-7\n\n');
    connection.deliver(liveBatch([change(8), change(9)]));
    expect(sink.written.at(-1)).toBe('change-8\n\nchange-9\n\n');
  });

  it('never sends a change twice, even one the hub reads only after the replay went live', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 10_000);
    connection.hold();
    // The replay read 10 and 11 from the table before the hub did.
    connection.sendChange(change(10));
    connection.sendChange(change(11));
    connection.release();
    connection.deliver(liveBatch([change(10), change(11), change(12)]));
    expect(sink.written).toEqual(['change-10\n\n', 'change-11\n\n', 'change-12\n\n']);
    connection.deliver(liveBatch([change(12)]));
    expect(sink.written).toHaveLength(3);
  });

  it('orders by event position: commit first, then prepare', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 10_000);
    connection.sendChange({ position: { commit: 7n, prepare: 3n }, frame: 'a' });
    connection.deliver(
      liveBatch([
        { position: { commit: 7n, prepare: 2n }, frame: 'old' },
        { position: { commit: 7n, prepare: 4n }, frame: 'b' },
        { position: { commit: 8n, prepare: 1n }, frame: 'c' },
      ]),
    );
    expect(sink.written).toEqual(['a', 'bc']);
  });

  it('counts held changes against the limit and drops a client that would exceed it', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 50);
    connection.hold();
    for (let n = 0; n < 10; n += 1)
      connection.deliver(liveBatch([{ position: positionOf(n), frame: frame(n) }]));
    expect(sink.destroyed).toBe(true);
    expect(sink.written).toEqual([]);
    connection.release();
    expect(sink.written).toEqual([]);
  });

  it('writes nothing after the server ended the stream or the client left', () => {
    const sink = new FakeSink();
    const connection = new SseConnection(sink, 100);
    connection.end();
    expect(sink.ended).toBe(true);
    expect(connection.send('x\n\n')).toBe(false);
    connection.deliver(liveBatch([change(1)]));
    expect(sink.written).toEqual([]);

    const other = new SseConnection(new FakeSink(), 100);
    other.markClosed();
    expect(other.send('x\n\n')).toBe(false);
    expect(other.outcome).toBe('ended');
  });

  it("writes one batch's shared bytes to every client that has none of its changes yet", () => {
    const written: (string | Uint8Array)[] = [];
    const sinkRecording = (): SseSink => ({
      write: (chunk) => {
        written.push(chunk);
        return true;
      },
      writableLength: 0,
      end: () => undefined,
      destroy: () => undefined,
    });
    const batch = liveBatch([change(1), change(2)]);
    new SseConnection(sinkRecording(), 100).deliver(batch);
    new SseConnection(sinkRecording(), 100).deliver(batch);
    expect(written).toEqual([batch.bytes, batch.bytes]);
    expect(written[0]).toBe(written[1]);
    expect(Buffer.from(batch.bytes).toString('utf8')).toBe('change-1\n\nchange-2\n\n');
  });

  it('refuses an empty live batch', () => {
    expect(() => liveBatch([])).toThrow(/at least one change/);
  });

  it('puts a live batch in position order before encoding it', () => {
    const batch = liveBatch([change(3), change(1), change(2)]);
    expect(batch.changes.map(({ frame }) => frame)).toEqual(['change-1\n\n', 'change-2\n\n', 'change-3\n\n']);
    expect(Buffer.from(batch.bytes).toString('utf8')).toBe('change-1\n\nchange-2\n\nchange-3\n\n');
  });
});
