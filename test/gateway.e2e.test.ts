import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pipelineKeyAt } from './support/auth.js';
import { callAt } from './support/http.js';
import { changeOf, SseStream } from './support/sse.js';
import { stopProcess } from './support/stack.js';

/**
 * deploy/compose's nginx gateway, as written, in front of the test stack: the answers it compresses,
 * and the ones it must pass through as they are written. Only what ties the file to Docker changes:
 * the resolver (Docker's DNS), the upstream (`api:3000`) and the port it listens on.
 */
const NGINX = process.env.PORTAL_NGINX ?? '/usr/sbin/nginx';

let directory: string | undefined;
let nginx: ChildProcess | undefined;
let gateway: string;
let api: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The compose gateway's server block, pointed at the test stack and listening on `port`. */
async function gatewayServer(port: number): Promise<string> {
  const written = await readFile(new URL('../deploy/compose/gateway.conf', import.meta.url), 'utf8');
  const local = written
    .replace(/^resolver .*$/m, '')
    .replace('http://api:3000', api)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`);
  for (const [changed, from] of [
    [local.includes(api), 'upstream'],
    [local.includes(`listen 127.0.0.1:${port};`), 'listen'],
    [!/^resolver /m.test(local), 'resolver'],
  ] as const) {
    if (!changed) throw new Error(`gateway.conf: its ${from} line is not where this test expects it`);
  }
  return local;
}

/** Resolves once `url` answers; rejects as soon as `child` cannot start or exits. */
async function answersAt(url: string, child: ChildProcess): Promise<void> {
  const ended: { failure: Error | null } = { failure: null };
  child.once('error', (error) => {
    ended.failure = error;
  });
  child.once('exit', (code, signal) => {
    ended.failure = new Error(`nginx exited (${String(code ?? signal)})`);
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (ended.failure !== null) throw ended.failure;
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`nothing answers at ${url}`);
}

beforeAll(async () => {
  api = inject('baseUrl');
  const home = await mkdtemp(join(tmpdir(), 'portal-gateway-'));
  directory = home;
  const port = await freePort();
  await writeFile(join(home, 'server.conf'), await gatewayServer(port));
  // Every path nginx writes to in this directory (Debian's build would otherwise use /var/lib/nginx,
  // which a user other than root may not write), its errors to the test's output.
  const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `  ${kind}_temp_path ${join(home, kind)};`,
  );
  await writeFile(
    join(home, 'nginx.conf'),
    [
      'daemon off;',
      `pid ${join(home, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events {}',
      'http {',
      '  access_log off;',
      ...temporary,
      `  include ${join(home, 'server.conf')};`,
      '}',
    ].join('\n'),
  );
  nginx = spawn(NGINX, ['-p', home, '-c', join(home, 'nginx.conf')], { stdio: 'inherit' });
  gateway = `http://127.0.0.1:${port}`;
  await answersAt(gateway, nginx);
});

afterAll(async () => {
  if (nginx !== undefined) await stopProcess(nginx);
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

/** `path` at `base` (GET unless `body` is given); the answer's body as the bytes that came over the wire. */
async function raw(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  // fetch would undo the compression; node's own client shows the body as sent.
  return new Promise((resolve, reject) => {
    const method = body === undefined ? 'GET' : 'POST';
    const sent = request(`${base}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === 'string') answer.set(name, value);
        }
        resolve({ status: response.statusCode ?? 0, headers: answer, bytes: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the compose gateway in front of the API', () => {
  it('gzips a JSON answer for a client that accepts it, to the same bytes the API sent', async () => {
    const path = '/api/v1/openapi.json';
    const direct = await raw(api, path);
    const compressed = await raw(gateway, path, { 'accept-encoding': 'gzip' });
    const plain = await raw(gateway, path);

    expect(direct.status).toBe(200);
    expect(direct.bytes.length).toBeGreaterThan(1024);
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(compressed.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(compressed.bytes.length).toBeLessThan(direct.bytes.length / 4);
    expect(gunzipSync(compressed.bytes).equals(direct.bytes)).toBe(true);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.equals(direct.bytes)).toBe(true);
  });

  it('gzips the STAC answers too (their links name the gateway: it forwards the host)', async () => {
    for (const path of ['/api/v1/stac/conformance', '/api/v1/stac/queryables']) {
      const plain = await raw(gateway, path);
      const compressed = await raw(gateway, path, { 'accept-encoding': 'gzip' });
      expect(plain.bytes.length, path).toBeGreaterThan(1024);
      expect(compressed.headers.get('content-encoding'), path).toBe('gzip');
      expect(gunzipSync(compressed.bytes).equals(plain.bytes), path).toBe(true);
    }
  });

  it('sends an answer under 1 KB as it is', async () => {
    const direct = await raw(api, '/health');
    const through = await raw(gateway, '/health', { 'accept-encoding': 'gzip' });

    expect(direct.bytes.length).toBeLessThan(1024);
    expect(through.headers.get('content-encoding')).toBeNull();
    expect(through.bytes.equals(direct.bytes)).toBe(true);
  });

  it('passes NDJSON bulk results through uncompressed', async () => {
    const owner = await pipelineKeyAt(api);
    const command = (title: string) =>
      JSON.stringify({ type: 'createCatalog', body: { title, description: 'gateway test', links: [] } });
    const lines = Array.from({ length: 40 }, (_, index) => command(`Gateway bulk ${index}`));
    const answer = await raw(
      gateway,
      '/api/v1/portal/bulk',
      { ...owner, 'content-type': 'application/x-ndjson', 'accept-encoding': 'gzip' },
      `${lines.join('\n')}\n`,
    );

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/x-ndjson');
    expect(answer.bytes.length).toBeGreaterThan(1024);
    expect(answer.headers.get('content-encoding')).toBeNull();
    expect(answer.bytes.toString('utf8').trim().split('\n')).toHaveLength(41);
  });

  it('passes the event stream through uncompressed, each change as it happens', async () => {
    const owner = await pipelineKeyAt(api);
    const stream = await SseStream.open(gateway, '/api/v1/events', { ...owner, 'accept-encoding': 'gzip' });
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-encoding')).toBeNull();
      const created = await callAt<{ portalItemId: string }>(api, 'POST', '/api/v1/portal/catalogs/create', {
        headers: { ...owner, prefer: 'respond-async' },
        body: { title: 'Through the gateway', description: 'gateway test', links: [], visibility: 'org' },
      });
      expect([201, 202]).toContain(created.status);
      const id = created.body.portalItemId;
      // The stream is still open: the change came through while it was being written, not at its end.
      await stream.next((message) => changeOf(message).objectId === id, 'the create, through the gateway');
      expect(stream.isEnded).toBe(false);
    } finally {
      stream.close();
    }
  });
});
