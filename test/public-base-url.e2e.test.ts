import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';

const repoRoot = new URL('../', import.meta.url).pathname;

/** GET with a Host header of the caller's choosing (fetch would not send it). */
async function getWithHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(path, inject('baseUrl'));
  const sent = request(url, { headers: { host, accept: 'application/json' } });
  sent.end();
  const [response] = (await once(sent, 'response')) as [import('node:http').IncomingMessage];
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode ?? 0, body };
}

describe('PUBLIC_BASE_URL and the Host header', () => {
  it('without PUBLIC_BASE_URL, links never carry a Host the client invented', async () => {
    const answer = await getWithHost('/', 'evil.example');
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('evil.example');
    const { links } = JSON.parse(answer.body) as { links: { href: string }[] };
    for (const link of links) expect(link.href.startsWith(`${inject('baseUrl')}/`)).toBe(true);
  });

  it('a local Host (how a developer calls it) is kept', async () => {
    const port = new URL(inject('baseUrl')).port;
    const answer = await getWithHost('/', `localhost:${port}`);
    const { links } = JSON.parse(answer.body) as { links: { href: string }[] };
    expect(links[0]?.href).toBe(`http://localhost:${port}/`);
  });

  it('the API refuses to start with NODE_ENV=production and no PUBLIC_BASE_URL, naming it', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-like-secret-of-32-characters',
      PORT: '0',
    };
    delete env.PUBLIC_BASE_URL;
    const api = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    api.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    api.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // An API that starts anyway is stopped, so a failing run leaves no process behind.
    const stop = setTimeout(() => api.kill('SIGKILL'), 30_000);
    const [code] = (await once(api, 'exit')) as [number | null];
    clearTimeout(stop);
    expect(code).not.toBe(0);
    expect(output).toContain('PUBLIC_BASE_URL: is required when NODE_ENV=production');
    expect(output).not.toContain('listening');
  });
});
