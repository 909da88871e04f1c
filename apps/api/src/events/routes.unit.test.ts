import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiDependencies } from '../dependencies.js';
import { eventRoutes } from './routes.js';

/**
 * The handler awaits the feed's start before it opens the stream. A client gone during that await has
 * already had its 'close': the handler must notice and never hand the feed a connection nobody reads
 * (the hub would keep it, and write heartbeats to it, for good).
 */
describe('GET /api/v1/events with a client that leaves before the stream opens', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('hands the feed nothing', async () => {
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let startAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      startAsked = resolve;
    });
    const followed: unknown[] = [];
    // Only the members the handler uses; the hub itself is tested against PostgreSQL elsewhere.
    const changeFeed = {
      accepting: true,
      settings: { maxBufferBytes: 1024 },
      startOf: async () => {
        startAsked();
        await started;
        return { kind: 'live' };
      },
      follow: (client: unknown) => {
        followed.push(client);
        return Promise.resolve();
      },
      detach: () => undefined,
    };
    const app = express();
    app.use(eventRoutes({ changeFeed } as unknown as ApiDependencies));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    const request = http.get({ host: '127.0.0.1', port, path: '/api/v1/events' });
    request.on('error', () => undefined);
    await asked;
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(followed).toEqual([]);
  });

  it('opens the stream for a GET that carries a body', async () => {
    const followed: unknown[] = [];
    const changeFeed = {
      accepting: true,
      settings: { maxBufferBytes: 1024 },
      startOf: () => Promise.resolve({ kind: 'now' }),
      follow: (client: unknown) => {
        followed.push(client);
        return Promise.resolve();
      },
      detach: () => undefined,
    };
    const app = express();
    // As the API mounts it: the body is read before the route runs.
    app.use(express.json());
    app.use(eventRoutes({ changeFeed } as unknown as ApiDependencies));
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'GET',
      path: '/api/v1/events',
      headers: { 'content-type': 'application/json', 'content-length': '7' },
    });
    request.on('error', () => undefined);
    request.end('{"a":1}');
    const [response] = (await once(request, 'response')) as [http.IncomingMessage];
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    request.destroy();
    expect(followed).toHaveLength(1);
  });
});
