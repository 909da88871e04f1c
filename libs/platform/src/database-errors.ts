/**
 * Classifies errors from PostgreSQL (SQLSTATE codes) and from the connection to it, so callers decide
 * between "retry later" (the database is away) and "the input was wrong" without matching messages.
 */
const transientSqlStateClasses = ['08', '57P', '53'];
/**
 * In class 08 but not an outage: the server refused what the client sent (a parameter count that does
 * not match the statement) and keeps the connection. That is a bug in our SQL, to surface as one.
 */
const PROTOCOL_VIOLATION = '08P01';
const transientSocketCodes = ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'];

function sqlStateOf(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** The database connection went away or the server is shutting down or overloaded: retry later. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = sqlStateOf(error);
  if (code !== null) {
    if (code === PROTOCOL_VIOLATION) return false;
    if (transientSqlStateClasses.some((prefix) => code.startsWith(prefix))) return true;
    if (transientSocketCodes.includes(code)) return true;
  }
  return /Connection terminated|Client has encountered a connection error|not queryable/i.test(error.message);
}

/**
 * SQLSTATE class 22, "data exception": PostgreSQL refused a value (a timestamp out of range, text it
 * cannot store). Input validation should catch these first; this is the net under it.
 */
export function isInvalidDataError(error: unknown): boolean {
  return sqlStateOf(error)?.startsWith('22') ?? false;
}

/** SQLSTATE 42P01, "undefined table": a relation the statement names does not exist (not migrated, or dropped). */
export function isUndefinedTableError(error: unknown): boolean {
  return sqlStateOf(error) === '42P01';
}

/** SQLSTATE 42501, "insufficient privilege": the role may not do this (it does not own the object, say). */
export function isInsufficientPrivilegeError(error: unknown): boolean {
  return sqlStateOf(error) === '42501';
}
