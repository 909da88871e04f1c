import { pino, type DestinationStream, type Logger } from 'pino';
import { traceLogFields } from './tracing/trace-log-fields.js';

export type { Logger } from 'pino';

/** Paths that may carry credentials; pino replaces them before a line is written. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.csrfToken',
  '*.secret',
  '*.accessToken',
  'config.S3_SECRET_ACCESS_KEY',
  'config.JWT_SECRET',
  'config.WEBHOOK_SECRET_KEY',
];

/** `destination`: where lines go instead of stdout (tests read them). */
export function createLogger(options: {
  name: string;
  level: string;
  destination?: DestinationStream;
}): Logger {
  const settings = {
    name: options.name,
    level: options.level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    base: { app: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // `trace_id`/`span_id` of the active span, when tracing is on (docs/operations.md, "Traces").
    mixin: traceLogFields,
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
