/**
 * Wakes waiting subscribers when new events may be readable. A version counter (not a one-shot
 * event) makes a wake-up that arrives between "read found nothing" and "start waiting" impossible to lose.
 */
export class ChangeSignal {
  private version = 0;
  private readonly waiters = new Set<() => void>();

  get current(): number {
    return this.version;
  }

  notify(): void {
    this.version += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /**
   * Resolves (never rejects) once the version has moved past `seen`, after `timeoutMs` when given,
   * or when `signal` aborts.
   */
  waitForChange(seen: number, timeoutMs: number | null, signal: AbortSignal): Promise<void> {
    if (this.version !== seen || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = timeoutMs === null ? undefined : setTimeout(wake, timeoutMs);
      const waiters = this.waiters;
      function wake(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        waiters.delete(wake);
        resolve();
      }
      signal.addEventListener('abort', wake, { once: true });
      waiters.add(wake);
    });
  }
}
