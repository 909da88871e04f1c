import { comparePositions, type Position } from '@portal/domain';

/** The part of an HTTP response the feed writes to; a fake in unit tests. */
export interface SseSink {
  write(chunk: string | Uint8Array): boolean;
  /** Bytes accepted but not yet handed to the kernel: the response's own buffer and its socket's. */
  readonly writableLength: number;
  end(): void;
  destroy(): void;
}

/**
 * A change's frame and its event position. Positions (unlike the audit table's `seq`) keep their order
 * across a read-model rebuild, so they decide what a client already has.
 */
export interface ChangeFrame {
  readonly position: Position;
  readonly frame: string;
}

/**
 * The changes of one hub read that a group of audiences receives, encoded once: the same bytes go to every
 * client of those audiences, so fan-out costs a write per client, not an encoding.
 */
export interface LiveBatch {
  /** In position order (strictly rising); at least one. */
  readonly changes: readonly ChangeFrame[];
  readonly bytes: Uint8Array;
}

function isRising(changes: readonly ChangeFrame[]): boolean {
  for (let index = 1; index < changes.length; index += 1) {
    const previous = changes[index - 1];
    const current = changes[index];
    if (previous && current && comparePositions(previous.position, current.position) >= 0) return false;
  }
  return true;
}

/** Puts the changes in position order (they come so from the table; a client relies on it) and encodes them. */
export function liveBatch(changes: readonly ChangeFrame[]): LiveBatch {
  if (changes.length === 0) throw new Error('a live batch holds at least one change');
  const ordered = isRising(changes)
    ? changes
    : [...changes].sort((a, b) => comparePositions(a.position, b.position));
  return { changes: ordered, bytes: Buffer.from(ordered.map(({ frame }) => frame).join(''), 'utf8') };
}

/**
 * One client's stream with the feed's memory policy: a client that reads slower than changes come has
 * its unsent bytes grow, and past `maxBufferBytes` it is dropped (its socket destroyed) rather than
 * buffered without bound. It reconnects with `Last-Event-ID` and catches up from the audit table.
 *
 * While its missed changes are replayed, live changes are held (counted against the same limit) and
 * sent after the replay. A change at or before the last one sent is never sent again, so the replay and
 * the live feed may overlap (the hub may read a change the replay already sent): no gap, no duplicate.
 */
export class SseConnection {
  private held: ChangeFrame[] | null = null;
  /** The position of the last change sent. */
  private through: Position | null = null;
  private heldBytes = 0;
  private state: 'open' | 'ended' | 'dropped' = 'open';

  constructor(
    private readonly sink: SseSink,
    private readonly maxBufferBytes: number,
  ) {}

  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** `dropped` when the memory policy (or a failed replay) ended it, `ended` when the server did. */
  get outcome(): 'open' | 'ended' | 'dropped' {
    return this.state;
  }

  /** Writes now, whatever is held; `false` once the client is gone or has just been dropped. */
  send(frame: string | Uint8Array): boolean {
    if (this.state !== 'open') return false;
    this.sink.write(frame);
    if (this.sink.writableLength > this.maxBufferBytes) {
      this.drop();
      return false;
    }
    return true;
  }

  /** A change, unless the client already has it (or a later one); `false` once the client is gone. */
  sendChange(change: ChangeFrame): boolean {
    if (!this.isNew(change)) return this.isOpen;
    this.through = change.position;
    return this.send(change.frame);
  }

  /**
   * Live changes: sent now in one write, or held while a replay runs. The batch's shared bytes go out as
   * they are unless a replay already sent some of its changes (then only the new ones are written).
   */
  deliver(batch: LiveBatch): void {
    if (this.state !== 'open') return;
    if (this.held !== null) {
      this.held.push(...batch.changes);
      this.heldBytes += batch.bytes.byteLength;
      if (this.heldBytes + this.sink.writableLength > this.maxBufferBytes) this.drop();
      return;
    }
    const [first] = batch.changes;
    if (first && this.isNew(first)) {
      this.through = batch.changes.at(-1)?.position ?? first.position;
      this.send(batch.bytes);
      return;
    }
    this.sendAll(batch.changes);
  }

  /** From now on live changes wait for `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends the held live changes the replay did not send and goes live. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    this.heldBytes = 0;
    this.sendAll(held);
  }

  /** The server ends the stream; what was written still reaches the client. */
  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    this.held = null;
    this.sink.end();
  }

  /** Gone at once, unsent bytes and all. */
  drop(): void {
    if (this.state !== 'open') return;
    this.state = 'dropped';
    this.held = null;
    this.sink.destroy();
  }

  private isNew(change: ChangeFrame): boolean {
    return this.through === null || comparePositions(change.position, this.through) > 0;
  }

  /** The new ones among `changes`, in one write. */
  private sendAll(changes: readonly ChangeFrame[]): void {
    const fresh = changes.filter((change) => this.isNew(change));
    const last = fresh.at(-1);
    if (!last) return;
    this.through = last.position;
    this.send(fresh.length === 1 ? last.frame : fresh.map(({ frame }) => frame).join(''));
  }

  /** The client went away by itself. */
  markClosed(): void {
    if (this.state === 'open') this.state = 'ended';
    this.held = null;
  }
}
