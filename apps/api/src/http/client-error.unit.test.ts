import { createServer } from 'node:http';
import { connect } from 'node:net';
import { createLogger } from '@portal/platform';
import { describe, expect, it, vi } from 'vitest';
import { useInProcessServers } from '../../test/support/in-process-server.js';
import { answerClientError } from './client-error.js';

const servers = useInProcessServers();

async function serverAnsweringClientErrors(): Promise<URL> {
  const server = createServer((_req, res) => {
    res.end('{}');
  });
  server.on('clientError', answerClientError(createLogger({ name: 'test', level: 'silent' })));
  return new URL(await servers.start(server));
}

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends bytes exactly as given (fetch would refuse most of these) and reads until the server closes. */
async function sendRaw(url: URL, request: string): Promise<RawAnswer> {
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  socket.write(request);
  await new Promise((resolve) => socket.on('close', resolve));
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function expectJsonProblem(answer: RawAnswer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as { message?: unknown; code?: unknown };
  expect(typeof body.message).toBe('string');
  expect(typeof body.code).toBe('string');
}

describe('answerClientError: what Node refuses before express sees it', () => {
  it('answers 431 with a JSON body for a URL over 16 KiB', async () => {
    const url = await serverAnsweringClientErrors();
    const answer = await sendRaw(url, `GET /${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectJsonProblem(answer, 431);
  });

  it('answers 431 for headers over 16 KiB', async () => {
    const url = await serverAnsweringClientErrors();
    const answer = await sendRaw(url, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`);
    expectJsonProblem(answer, 431);
  });

  it('answers 400 with a JSON body for an unknown method', async () => {
    const url = await serverAnsweringClientErrors();
    const answer = await sendRaw(url, 'FROBNICATE / HTTP/1.1\r\nHost: x\r\n\r\n');
    expectJsonProblem(answer, 400);
    expect(answer.body).toContain('method');
  });

  it('answers 400 with a JSON body for a control character in a header', async () => {
    const url = await serverAnsweringClientErrors();
    expectJsonProblem(await sendRaw(url, 'GET / HTTP/1.1\r\nHost: x\r\nX-A: b\u0001c\r\n\r\n'), 400);
    expectJsonProblem(await sendRaw(url, 'GET / HTTP/1.1\r\nHost: x\r\nX\u0001A: b\r\n\r\n'), 400);
  });

  it('answers 400 with a JSON body for bytes that are not HTTP at all', async () => {
    const url = await serverAnsweringClientErrors();
    expectJsonProblem(await sendRaw(url, 'hello there\r\n\r\n'), 400);
  });

  it('answers on a keep-alive connection that has already served a request', async () => {
    const url = await serverAnsweringClientErrors();
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await vi.waitFor(() => {
      expect(received).toMatch(/\r\n\r\n\{\}$/);
    });
    socket.write(`GET /${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    await new Promise((resolve) => socket.on('close', resolve));
    const second = received.slice(received.indexOf('{}') + 2);
    expect(second).toMatch(/^HTTP\/1.1 431 /);
    expect(second).toContain('"code":"HEADERS_TOO_LARGE"');
  });

  it('leaves a well-formed request to the application', async () => {
    const url = await serverAnsweringClientErrors();
    const answer = await sendRaw(url, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(200);
  });
});
