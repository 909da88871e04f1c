/**
 * One dependency `/health/ready` asks about. A check throws or answers `ok: false` when it is down.
 * Only `critical` checks (PostgreSQL, the event store) make the API not ready: without Redis or S3 the
 * API still serves reads and catalog commands, so a load balancer should keep sending it traffic.
 */
export interface ReadinessCheck {
  readonly name: string;
  readonly critical: boolean;
  check(): Promise<{ readonly ok: boolean; readonly detail?: Record<string, unknown> }>;
}

const CHECK_TIMEOUT_MS = 2_000;

interface CheckResult {
  readonly ok: boolean;
  readonly detail?: Record<string, unknown>;
  readonly error?: string;
}

export interface ReadinessReport {
  /** `degraded`: every critical dependency answers, some other does not. */
  readonly status: 'ready' | 'degraded' | 'not-ready';
  readonly checks: Record<string, CheckResult>;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/** Runs every check at once, each bounded in time, so one hung dependency cannot hang the probe. */
export async function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  onFailure: (name: string, error: unknown) => void = () => undefined,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (check): Promise<[string, CheckResult]> => {
      try {
        const result = await withTimeout(check.check(), CHECK_TIMEOUT_MS);
        return [check.name, { ok: result.ok, ...(result.detail ? { detail: result.detail } : {}) }];
      } catch (error) {
        // The probe is public: the cause (hosts, auth failures) goes to the log, the body says only "down".
        onFailure(check.name, error);
        return [check.name, { ok: false, error: 'down' }];
      }
    }),
  );
  const failing = checks.filter((_check, index) => !results[index]?.[1].ok);
  return {
    status:
      failing.length === 0 ? 'ready' : failing.some((check) => check.critical) ? 'not-ready' : 'degraded',
    checks: Object.fromEntries(results),
  };
}
