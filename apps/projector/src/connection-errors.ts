/**
 * Errors that say nothing about the event being applied: the database connection went away or the
 * server is shutting down. Retrying them later is right; dead-lettering the event would be wrong.
 */
const transientSqlStateClasses = ['08', '57P', '53'];

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (transientSqlStateClasses.some((prefix) => code.startsWith(prefix))) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  }
  return /Connection terminated|Client has encountered a connection error|not queryable/i.test(error.message);
}
