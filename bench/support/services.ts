/**
 * The benchmarks use the test services (`bash scripts/services/up.sh test`). These mirror what
 * `source scripts/services/env.sh test` exports, for a shell that did not source it; set values win.
 */
const testServiceDefaults: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/portal_test',
  REDIS_URL: 'redis://127.0.0.1:6379/1',
  S3_ENDPOINT: 'http://127.0.0.1:7481',
};

export function useTestServiceDefaults(): void {
  for (const [name, value] of Object.entries(testServiceDefaults)) process.env[name] ??= value;
}

/** The connection used to create and drop the benchmarks' own databases. */
export function adminDatabaseUrl(): string {
  return process.env.DATABASE_URL ?? testServiceDefaults.DATABASE_URL ?? '';
}
