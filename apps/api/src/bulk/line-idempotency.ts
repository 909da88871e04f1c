import type { BulkResultLine } from '@portal/contracts';
import type { Pool } from '@portal/platform';
import { CLAIM_LEASE_SECONDS, KEY_TTL_HOURS } from '../http/idempotency.js';

/** A line with its `idempotencyKey`, and the hash of its command (without the key). */
export interface KeyedLine {
  readonly key: string;
  readonly requestHash: string;
}

/** What the key table says about a line whose key was not free. */
export type KeyVerdict =
  | { readonly kind: 'replay'; readonly result: Omit<BulkResultLine, 'line'> }
  | { readonly kind: 'reused' }
  | { readonly kind: 'in-progress' };

interface StoredRow {
  readonly key: string;
  readonly request_hash: string;
  readonly status: number | null;
  readonly body: Omit<BulkResultLine, 'line'> | null;
}

/**
 * The per-line `Idempotency-Key`s of a bulk request, in the same table and with the same rules as the
 * `Idempotency-Key` header of single commands (http/idempotency.ts): a key is the caller's own, for
 * this operation; a success is remembered for a day and replayed to a line with the same key and
 * command; the same key with another command is refused (422); a key whose first line is still being
 * applied answers 409; after a refusal the key is free again. One statement per chunk for each step.
 */
export class LineKeys {
  constructor(
    private readonly pool: Pool,
    private readonly scope: string,
  ) {}

  /** Claims every key it can; the verdict of each key already taken (keys missing from it were claimed). */
  async claim(lines: readonly KeyedLine[]): Promise<Map<string, KeyVerdict>> {
    const verdicts = new Map<string, KeyVerdict>();
    if (lines.length === 0) return verdicts;
    const claimed = await this.pool.query<{ key: string }>(
      `INSERT INTO api.idempotency_keys (scope, key, request_hash)
       SELECT $1, key, request_hash FROM unnest($2::text[], $3::text[]) AS line(key, request_hash)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = NULL, body = NULL,
         headers = NULL, created_at = now()
         WHERE api.idempotency_keys.created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
            OR (api.idempotency_keys.status IS NULL
                AND api.idempotency_keys.created_at < now() - make_interval(secs => ${CLAIM_LEASE_SECONDS}))
       RETURNING key`,
      [this.scope, lines.map((line) => line.key), lines.map((line) => line.requestHash)],
    );
    const free = new Set(claimed.rows.map((row) => row.key));
    const taken = lines.filter((line) => !free.has(line.key));
    if (taken.length === 0) return verdicts;
    const stored = await this.pool.query<StoredRow>(
      `SELECT key, request_hash, status, body FROM api.idempotency_keys WHERE scope = $1 AND key = ANY($2::text[])`,
      [this.scope, taken.map((line) => line.key)],
    );
    const rows = new Map(stored.rows.map((row) => [row.key, row]));
    for (const line of taken) {
      const row = rows.get(line.key);
      if (row && row.request_hash !== line.requestHash) verdicts.set(line.key, { kind: 'reused' });
      else if (!row || row.status === null || row.body === null)
        verdicts.set(line.key, { kind: 'in-progress' });
      else verdicts.set(line.key, { kind: 'replay', result: row.body });
    }
    return verdicts;
  }

  /** Remembers the successes, frees the keys of refused lines. */
  async settle(
    succeeded: readonly { key: string; result: Omit<BulkResultLine, 'line'> }[],
    refused: readonly string[],
  ): Promise<void> {
    if (succeeded.length > 0) {
      await this.pool.query(
        `UPDATE api.idempotency_keys AS stored SET status = line.status, body = line.body, headers = '{}'::jsonb
           FROM unnest($2::text[], $3::int[], $4::jsonb[]) AS line(key, status, body)
          WHERE stored.scope = $1 AND stored.key = line.key`,
        [
          this.scope,
          succeeded.map(({ key }) => key),
          succeeded.map(({ result }) => result.status),
          succeeded.map(({ result }) => JSON.stringify(result)),
        ],
      );
    }
    if (refused.length > 0) {
      await this.pool.query('DELETE FROM api.idempotency_keys WHERE scope = $1 AND key = ANY($2::text[])', [
        this.scope,
        refused,
      ]);
    }
  }
}
