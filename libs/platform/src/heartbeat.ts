/**
 * The upload worker refreshes this Redis key while it runs; the API's readiness probe reads it. Under the
 * queue prefix, so deployments (or test stacks) sharing one Redis each see their own workers.
 */
export function uploadWorkerHeartbeatKey(queuePrefix: string): string {
  return `${queuePrefix}:upload-worker:heartbeat`;
}
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** Three missed beats and the worker counts as gone. */
export const HEARTBEAT_TTL_SECONDS = 15;
