import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseConnection } from './sse-connection.js';

interface Outcome {
  readonly sent: number;
  readonly peakBuffered: number;
}

/** Real sockets, no database: a client that stops reading fills the kernel's buffers, then the response's. */
describe('a client that stops reading', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is dropped once its unsent bytes pass the limit, and memory stays bounded', async () => {
    const limit = 256 * 1024;
    const frame = `data: ${'x'.repeat(16 * 1024)}\n\n`;
    let finish: (outcome: Outcome) => void = () => undefined;
    const outcome = new Promise<Outcome>((resolve) => {
      finish = resolve;
    });
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const connection = new SseConnection(res, limit);
      let sent = 0;
      let peakBuffered = 0;
      const closed = once(res, 'close');
      // Far faster than the paused client reads; without the policy this would never stop.
      const timer = setInterval(() => {
        for (let n = 0; n < 16 && connection.isOpen; n += 1) {
          if (connection.send(frame)) sent += 1;
          peakBuffered = Math.max(peakBuffered, res.writableLength);
        }
        if (connection.isOpen) return;
        clearInterval(timer);
        void closed.then(() => {
          finish({ sent, peakBuffered });
        });
      }, 1);
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const request = http.get({ host: '127.0.0.1', port, path: '/' }, (response) => {
      response.pause();
    });
    request.on('error', () => undefined);

    const { sent, peakBuffered } = await outcome;
    // It got what the kernel buffers hold, then was cut off: the process kept at most the limit and a frame.
    expect(sent).toBeGreaterThan(0);
    expect(peakBuffered).toBeLessThanOrEqual(limit + Buffer.byteLength(frame));
    request.destroy();
  });
});
