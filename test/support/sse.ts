/**
 * A Server-Sent Events client for tests, over `fetch` (what a browser's EventSource does, minus the
 * automatic reconnect: tests reconnect themselves, with the `Last-Event-ID` they choose).
 */

export interface SseMessage {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

/** Splits the stream into events and comments, as WHATWG HTML §9.2.6 reads it. */
export class SseParser {
  private buffer = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  push(chunk: string): { messages: SseMessage[]; comments: string[] } {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    const comments: string[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      const breakLength = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + breakLength);
      if (line === '') {
        if (this.data.length > 0)
          messages.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
      } else if (line.startsWith(':')) {
        comments.push(line.slice(1).trim());
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') this.id = value;
        else if (field === 'event') this.event = value;
        else if (field === 'data') this.data.push(value);
      }
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return { messages, comments };
  }
}

export class SseStream {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  /** Resolves when the server ends the stream (or the test aborts it). */
  readonly ended: Promise<void>;
  private readonly listeners = new Set<() => void>();
  private done = false;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.ended = this.read();
  }

  /** Opens `path`; resolves once the answer's headers arrived. */
  static async open(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const abort = new AbortController();
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: abort.signal,
    });
    return new SseStream(response, abort);
  }

  get isEnded(): boolean {
    return this.done;
  }

  /** The last `id:` received, as EventSource would send it back. */
  get lastEventId(): string | null {
    return this.messages.at(-1)?.id ?? null;
  }

  /** Resolves once `condition` holds over what arrived; rejects after `timeoutMs`. */
  until(condition: (stream: SseStream) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    if (condition(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition(this)) return;
        cleanUp();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanUp();
        reject(new Error(`SSE: timed out waiting for ${what}; got ${this.messages.length} messages`));
      }, timeoutMs);
      const cleanUp = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
    });
  }

  /** The first message matching, waiting for it if need be. */
  async next(
    matches: (message: SseMessage) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<SseMessage> {
    await this.until((stream) => stream.messages.some(matches), what, timeoutMs);
    return this.messages.find(matches) as SseMessage;
  }

  close(): void {
    this.abort.abort();
  }

  private async read(): Promise<void> {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      if (!this.response.body) return;
      for await (const chunk of this.response.body) {
        const { messages, comments } = parser.push(decoder.decode(chunk as Uint8Array, { stream: true }));
        this.messages.push(...messages);
        this.comments.push(...comments);
        for (const listener of [...this.listeners]) listener();
      }
    } catch {
      // Aborted by the test, or the server dropped the connection: the stream ended either way.
    } finally {
      this.done = true;
      for (const listener of [...this.listeners]) listener();
    }
  }
}

/** The `data:` of a change event. */
export interface ChangeData {
  readonly objectId: string;
  readonly kind: string;
  readonly type: string;
  readonly revision: number;
  readonly position: string;
  readonly occurredAt: string;
  readonly actorId: string | null;
}

export function changeOf(message: SseMessage): ChangeData {
  return JSON.parse(message.data) as ChangeData;
}
