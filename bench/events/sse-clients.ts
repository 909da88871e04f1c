import * as http from 'node:http';
import { inGroups } from '../support/in-groups.js';

/**
 * Many SSE clients in one process, cheaply: one raw `http.request` each (no EventSource, no parser
 * objects), and per chunk only the `id:` lines are looked at. Each receipt is reported with the time it
 * was read.
 */
export interface SseClientPool {
  /** Clients whose stream is still open. */
  open(): number;
  /** Events received per client still open: equal for all when none got a change twice or missed one. */
  receiptsOfOpenClients(): number[];
  /** Clients the server disconnected (a slow client is dropped) or that failed to connect. */
  readonly lost: { count: number };
  close(): void;
}

const ID_LINE = /^id: ?(.*)$/gm;

export async function connectClients(
  baseUrl: string,
  count: number,
  /** The `n`-th client's credential headers. */
  headersOf: (n: number) => Record<string, string>,
  onEvent: (position: string, receivedAt: number) => void,
): Promise<SseClientPool> {
  const url = new URL('/api/v1/events', baseUrl);
  // One socket per client: a streaming response holds its connection for good.
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let openCount = 0;
  const receipts = new Uint32Array(count);
  const isOpen = new Uint8Array(count);
  const lost = { count: 0 };
  let closing = false;

  const connectOne = (index: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(
        url,
        { agent, headers: { accept: 'text/event-stream', ...headersOf(index) } },
        (response) => {
          if (response.statusCode !== 200) {
            lost.count += 1;
            response.resume();
            resolve();
            return;
          }
          openCount += 1;
          isOpen[index] = 1;
          response.setEncoding('utf8');
          let partial = '';
          response.on('data', (chunk: string) => {
            const receivedAt = performance.now();
            const text = partial + chunk;
            const lastBreak = text.lastIndexOf('\n');
            partial = text.slice(lastBreak + 1);
            for (const match of text.slice(0, lastBreak + 1).matchAll(ID_LINE)) {
              if (!match[1]) continue;
              receipts[index] = (receipts[index] ?? 0) + 1;
              onEvent(match[1], receivedAt);
            }
          });
          response.once('close', () => {
            openCount -= 1;
            isOpen[index] = 0;
            if (!closing) lost.count += 1;
          });
          resolve();
        },
      );
      request.on('error', () => {
        if (!closing) lost.count += 1;
        resolve();
      });
      requests.push(request);
    });

  // A few at a time: a thousand connections at once would only queue in the API's accept backlog.
  await inGroups(count, 50, connectOne);
  return {
    open: () => openCount,
    receiptsOfOpenClients: () => Array.from(receipts).filter((_, index) => isOpen[index] === 1),
    lost,
    close: () => {
      closing = true;
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
}
