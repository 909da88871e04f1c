import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Paths that may carry credentials; pino replaces them before a line is written. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.accessToken',
  'config.S3_SECRET_ACCESS_KEY',
];

export function createLogger(options: { name: string; level: string }): Logger {
  return pino({
    name: options.name,
    level: options.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { app: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
