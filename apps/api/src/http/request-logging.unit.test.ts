import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { requestLogging } from './request-logging.js';

interface Line {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  [field: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INFO = 30;
const WARN = 40;
const ERROR = 50;

/** An app with the request log at `level` and the routes `routes` adds; its log lines, parsed. */
async function served(
  level: 'info' | 'warn',
  routes: (app: express.Express) => void,
  send: (origin: string) => Promise<unknown>,
): Promise<Line[]> {
  const lines: Line[] = [];
  const logger = createLogger({
    name: 'api',
    level,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
  });
  const app = express();
  // Requests not yet closed: their completion lines are written when they close, just after the
  // client has the answer, so the lines are read once none is open.
  let open = 0;
  app.use((_req, res, next) => {
    open += 1;
    res.once('close', () => setImmediate(() => (open -= 1)));
    next();
  });
  app.use(requestLogging(logger));
  routes(app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await send(`http://127.0.0.1:${port}`);
    for (let waited = 0; open > 0 && waited < 5_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return lines;
}

const completions = (lines: Line[]) => lines.filter((line) => line.msg.startsWith('request '));

describe('requestLogging', () => {
  it('keeps a safe X-Request-Id, echoes it, and puts it on the handler lines and the completion line', async () => {
    let echoed: string | null = null;
    const lines = await served(
      'info',
      (app) =>
        app.get('/things', (req, res) => {
          req.log.info({ found: 3 }, 'looked things up');
          res.json({ things: 3 });
        }),
      async (origin) => {
        const response = await fetch(`${origin}/things?kind=a`, {
          headers: { 'x-request-id': 'pipeline-7:run.1' },
        });
        echoed = response.headers.get('x-request-id');
      },
    );
    expect(echoed).toBe('pipeline-7:run.1');
    const request = { id: 'pipeline-7:run.1', method: 'GET', url: '/things?kind=a' };
    expect(lines.find((line) => line.msg === 'looked things up')).toMatchObject({ req: request, found: 3 });
    expect(completions(lines)).toEqual([
      expect.objectContaining({
        level: INFO,
        msg: 'request completed',
        req: request,
        res: { statusCode: 200 },
        responseTime: expect.any(Number) as number,
      }),
    ]);
  });

  it('gives a fresh UUID to a request whose X-Request-Id is not safe to log', async () => {
    let echoed: string | null = null;
    const lines = await served(
      'info',
      (app) => app.get('/', (_req, res) => res.end()),
      async (origin) => {
        const response = await fetch(origin, { headers: { 'x-request-id': 'a b\u00e9{"x":1}' } });
        echoed = response.headers.get('x-request-id');
      },
    );
    expect(echoed).toMatch(UUID);
    expect(completions(lines)[0]?.req?.id).toBe(echoed);
  });

  it('logs 4xx answers as warnings and 5xx answers as errors', async () => {
    const lines = await served(
      'info',
      (app) => {
        app.get('/missing', (_req, res) => res.status(404).end());
        app.get('/broken', (_req, res) => res.status(503).end());
      },
      async (origin) => {
        await fetch(`${origin}/missing`);
        await fetch(`${origin}/broken`);
      },
    );
    expect(completions(lines).map((line) => [line.level, line.msg, line.res?.statusCode])).toEqual([
      [WARN, 'request completed', 404],
      [ERROR, 'request errored', 503],
    ]);
  });

  it('writes no completion line below its level, and handler lines still carry the request', async () => {
    const lines = await served(
      'warn',
      (app) =>
        app.get('/slow-dependency', (req, res) => {
          req.log.warn('a dependency answered slowly');
          res.json({});
        }),
      (origin) => fetch(`${origin}/slow-dependency`),
    );
    expect(completions(lines)).toEqual([]);
    expect(lines).toEqual([
      expect.objectContaining({
        level: WARN,
        msg: 'a dependency answered slowly',
        req: expect.objectContaining({ url: '/slow-dependency' }) as unknown,
      }),
    ]);
  });

  it('says so when the client left before the answer', async () => {
    const lines = await served(
      'info',
      (app) =>
        app.get('/long', (_req, res) => {
          setTimeout(() => res.end(), 300);
        }),
      async (origin) => {
        const leaving = new AbortController();
        const asked = fetch(`${origin}/long`, { signal: leaving.signal }).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 50));
        leaving.abort();
        await asked;
      },
    );
    expect(completions(lines).map((line) => line.msg)).toEqual(['request aborted']);
  });
});
