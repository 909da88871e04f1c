import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchText, getText, getTextWith, httpClientOf } from './http-get.js';

// Multi-byte characters, written in pieces that split them: the body must be decoded whole, not by chunk.
const body = `{"type":"FeatureCollection","title":"${'Zürich – 東京 '.repeat(20_000)}"}`;
const bytes = Buffer.from(body, 'utf8');

let server: Server;
let baseUrl: string;
const connections = new Set<unknown>();

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url !== '/page') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such page"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    for (let at = 0; at < bytes.length; at += 4097) response.write(bytes.subarray(at, at + 4097));
    response.end();
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
    const viaNode = await getText(`${baseUrl}/page`, { accept: 'application/json' });
    expect(viaNode).toEqual({ status: 200, body });
    expect(await fetchText(`${baseUrl}/page`)).toEqual(viaNode);
  });

  it('answers an error status with its body', async () => {
    expect(await getText(`${baseUrl}/missing`)).toEqual({ status: 404, body: '{"message":"no such page"}' });
  });

  it('keeps its connections open between requests', async () => {
    const before = connections.size;
    for (let request = 0; request < 5; request += 1) await getText(`${baseUrl}/page`);
    expect(connections.size - before).toBeLessThanOrEqual(1);
  });

  it('rejects when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(getText(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('--http-client', () => {
  it('takes node or fetch and names both when given another', () => {
    expect(getTextWith(httpClientOf('node'))).toBe(getText);
    expect(getTextWith(httpClientOf('fetch'))).toBe(fetchText);
    expect(() => httpClientOf('curl')).toThrow('--http-client takes node or fetch, got "curl"');
  });
});
