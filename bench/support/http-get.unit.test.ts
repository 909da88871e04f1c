import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchText, getText, wholeText } from './http-get.js';

// Multi-byte characters, written in pieces that split them: a character cut between two reads must be
// carried over to the next piece, never decoded in halves.
const body = `{"type":"FeatureCollection","title":"${'Zürich – 東京 '.repeat(20_000)}"}`;
const bytes = Buffer.from(body, 'utf8');

let server: Server;
let baseUrl: string;
const connections = new Set<Socket>();

/** What each path answers: a page, an error, a page cut off halfway, a dropped connection, silence. */
function answer(path: string, response: ServerResponse): void {
  switch (path) {
    case '/page':
      response.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < bytes.length; at += 4097) response.write(bytes.subarray(at, at + 4097));
      response.end();
      return;
    case '/cut':
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
      response.write(bytes.subarray(0, 1000), () => response.socket?.destroy());
      return;
    case '/drop':
      response.socket?.destroy();
      return;
    case '/silent':
      return;
    default:
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such page"}');
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    answer(request.url ?? '/', response);
  });
  server.on('connection', (socket) => connections.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('getText', () => {
  it('reads a body whole, as fetch does', async () => {
    const viaNode = await getText(`${baseUrl}/page`, { headers: { accept: 'application/json' } });
    expect(viaNode.status).toBe(200);
    expect(wholeText(viaNode)).toBe(body);
    // In pieces (the body is longer than one read), none of them empty.
    expect(viaNode.parts.length).toBeGreaterThan(1);
    expect(viaNode.parts).not.toContain('');
    const viaFetch = await fetchText(`${baseUrl}/page`);
    expect({ status: viaFetch.status, text: wholeText(viaFetch) }).toEqual({ status: 200, text: body });
  });

  it('answers an error status with its body', async () => {
    expect(await getText(`${baseUrl}/missing`)).toEqual({
      status: 404,
      parts: ['{"message":"no such page"}'],
    });
  });

  it('keeps its connections open between requests', async () => {
    const before = connections.size;
    for (let request = 0; request < 5; request += 1) await getText(`${baseUrl}/page`);
    expect(connections.size - before).toBeLessThanOrEqual(1);
  });

  it('rejects a body cut off before its end, never a shortened answer', async () => {
    await expect(getText(`${baseUrl}/cut`)).rejects.toThrow(/aborted|ECONNRESET/);
  });

  it('rejects a connection dropped before any answer', async () => {
    await expect(getText(`${baseUrl}/drop`)).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('rejects a service that stays silent past the timeout', async () => {
    await expect(getText(`${baseUrl}/silent`, { timeoutMs: 200 })).rejects.toThrow(
      `GET ${baseUrl}/silent: no answer for 200 ms`,
    );
  });
});
