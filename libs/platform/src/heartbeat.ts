/** The upload worker refreshes this Redis key while it runs; the API's readiness probe reads it. */
export const UPLOAD_WORKER_HEARTBEAT_KEY = 'portal:upload-worker:heartbeat';
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** Three missed beats and the worker counts as gone. */
export const HEARTBEAT_TTL_SECONDS = 15;
