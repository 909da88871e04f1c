/** A subscription ends when its caller aborts or its store closes, whichever comes first. */
export function subscriptionSignal(
  callerSignal: AbortSignal | undefined,
  storeClosing: AbortSignal,
): AbortSignal {
  return callerSignal ? AbortSignal.any([callerSignal, storeClosing]) : storeClosing;
}

/**
 * Reads `aborted` through a call so TypeScript does not narrow it to a constant across awaits:
 * the signal can abort while a subscription waits.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
