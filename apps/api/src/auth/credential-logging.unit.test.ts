import type { AddressInfo } from 'node:net';
import cookieParser from 'cookie-parser';
import express from 'express';
import { createLogger } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import { errorMiddleware } from '../http/error-middleware.js';
import { jsonBody } from '../http/json-body.js';
import { HttpProblem } from '../http/problem.js';
import { requestLogging } from '../http/request-logging.js';

const secrets = {
  password: 'hunter2-password-value',
  cookie: 'session-cookie-secret-value',
  csrf: 'csrf-token-secret-value',
  bearer: 'pcs_api-key-secret-value',
};

/** The API's logging path (the request log on the platform logger, the error middleware) with a captured output. */
async function logsOf(handler: express.RequestHandler, body: unknown): Promise<string> {
  const lines: string[] = [];
  const logger = createLogger({
    name: 'api',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  const app = express();
  app.use(requestLogging(logger));
  app.use(cookieParser());
  app.use(jsonBody(1024 * 1024));
  app.post('/api/auth/sign-in/email', handler);
  app.use(errorMiddleware);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${secrets.bearer}`,
        cookie: `session=${secrets.cookie}`,
        'x-csrf-token': secrets.csrf,
      },
      body: JSON.stringify(body),
    });
  } finally {
    server.close();
  }
  return lines.join('');
}

describe('logs of requests with credentials', () => {
  it('hold no password, cookie, CSRF token or key on a refused sign-in', async () => {
    const output = await logsOf(
      (req) => {
        req.log.info({ body: req.body as unknown }, 'handling');
        throw new HttpProblem(401, 'the email or the password is wrong', 'UNAUTHENTICATED');
      },
      { email: 'a@example.org', password: secrets.password },
    );
    expect(output).toContain('"statusCode":401');
    expect(output).toContain('"password":"[redacted]"');
    for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
  });

  it('hold none on an unexpected error either', async () => {
    const output = await logsOf(
      () => {
        throw new Error('boom');
      },
      { email: 'a@example.org', password: secrets.password },
    );
    expect(output).toContain('unhandled error');
    for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
  });
});
