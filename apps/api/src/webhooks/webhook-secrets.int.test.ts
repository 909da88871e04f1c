import { randomUUID } from 'node:crypto';
import { applySchema, createLogger, openWebhookSecret } from '@portal/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { useAuthDatabase } from '../../test/support/auth-database.js';
import { useTestApi } from '../../test/support/test-api.js';
import { webhookSchemaSql } from './webhook-schema.js';
import { sealClearSecrets } from './webhook-secrets.js';

/**
 * Webhook signing secrets at rest, through the real app on a database of this file's own: what the
 * `webhooks.endpoints` row holds after a registration and a rotation, and after a rotation whose event
 * could not be recorded.
 */
const db = useAuthDatabase('webhook_secrets');
const api = useTestApi(db, {
  WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true',
  WEBHOOK_SECRET_GRACE_SECONDS: '3600',
});
const quiet = createLogger({ name: 'api', level: 'silent' });

beforeAll(async () => {
  await applySchema(db.pool, 'webhooks', webhookSchemaSql);
});

interface Row {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

async function rowOf(id: string): Promise<Row> {
  const result = await db.pool.query<Row>(
    'SELECT secret, previous_secret, previous_secret_expires_at FROM webhooks.endpoints WHERE id = $1',
    [id],
  );
  const row = result.rows[0];
  if (!row) throw new Error(`no endpoint ${id}`);
  return row;
}

const open = (id: string, stored: string | null) => openWebhookSecret(api.webhookSecrets, id, stored ?? '');

/** An owner with a session, and a webhook of their personal organization. */
async function ownerWithWebhook() {
  const signedUp = await api.post('/api/auth/sign-up/email', {
    email: `hooks-${randomUUID()}@example.org`,
    password: 'a password nobody guesses',
    name: 'Hooks',
  });
  const session = signedUp.body.session as { activeOrganizationId: string };
  const cookie = (signedUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const headers = { cookie, 'x-csrf-token': String(signedUp.body.csrfToken) };
  const registered = await api.post(
    '/api/v1/webhooks',
    { url: 'http://127.0.0.1:9/hook', eventTypes: ['*'] },
    headers,
  );
  expect(registered.status).toBe(201);
  return {
    headers,
    orgId: session.activeOrganizationId,
    id: String(registered.body.id),
    secret: String(registered.body.secret),
  };
}

describe('webhook secrets at rest', () => {
  it('stores the secret sealed, never as it is', async () => {
    const { id, secret } = await ownerWithWebhook();
    const row = await rowOf(id);
    expect(secret).toMatch(/^whsec_/);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(secret);
    expect(row.secret).not.toContain(secret.slice('whsec_'.length));
    expect(open(id, row.secret)).toBe(secret);
  });

  it('rotates: a new secret shown once, the previous kept sealed for the grace period', async () => {
    const { id, secret, headers, orgId } = await ownerWithWebhook();
    const before = Date.now();
    const rotated = await api.post(`/api/v1/webhooks/${id}/rotate-secret`, {}, headers);
    expect(rotated.status).toBe(200);
    const next = String(rotated.body.secret);
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const row = await rowOf(id);
    expect(open(id, row.secret)).toBe(next);
    expect(open(id, row.previous_secret)).toBe(secret);
    expect(row.previous_secret).not.toContain(secret);
    const expiresAt = row.previous_secret_expires_at?.getTime() ?? 0;
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(rotated.body.previousSecretExpiresAt).toBe(row.previous_secret_expires_at?.toISOString());

    const events = await api.store.readStream(`org-${orgId}`);
    const recorded = events.find((event) => event.type === 'WebhookSecretRotated');
    expect(recorded?.data).toEqual({
      orgId,
      webhookId: id,
      previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString(),
    });
    expect(JSON.stringify(events.map((event) => [event.data, event.metadata]))).not.toContain(next);

    // Rotating again within the grace period drops the oldest; a grace of 0 ends the previous at once.
    const again = await api.post(`/api/v1/webhooks/${id}/rotate-secret`, { gracePeriodSeconds: 0 }, headers);
    expect(again.status).toBe(200);
    const last = await rowOf(id);
    expect(open(id, last.secret)).toBe(again.body.secret);
    expect(open(id, last.previous_secret)).toBe(next);
    expect(last.previous_secret_expires_at?.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('keeps the old secret when the rotation could not be recorded', async () => {
    const { id, secret, headers } = await ownerWithWebhook();
    const before = await rowOf(id);
    api.failing.add('org-');
    try {
      const failed = await api.post(`/api/v1/webhooks/${id}/rotate-secret`, {}, headers);
      expect(failed.status).toBe(500);
    } finally {
      api.failing.delete('org-');
    }
    const after = await rowOf(id);
    expect(after).toEqual(before);
    expect(open(id, after.secret)).toBe(secret);
  });

  it('refuses a grace period out of bounds', async () => {
    const { id, headers } = await ownerWithWebhook();
    const refused = await api.post(
      `/api/v1/webhooks/${id}/rotate-secret`,
      { gracePeriodSeconds: 8 * 86_400 },
      headers,
    );
    expect(refused.status).toBe(400);
    expect(String(refused.body.message)).toContain('gracePeriodSeconds');
  });

  it('seals the secrets stored in clear text before secrets were sealed, once', async () => {
    const id = randomUUID();
    await db.pool.query(
      `INSERT INTO webhooks.endpoints (id, org_id, url, event_types, secret, created_by, created_at, deliver_from)
       VALUES ($1, $2, 'https://hooks.example.org/', '{*}', 'whsec_written_in_clear', $3, now(), now())`,
      [id, randomUUID(), randomUUID()],
    );
    expect(await sealClearSecrets(db.pool, api.webhookSecrets, quiet)).toBeGreaterThanOrEqual(1);
    const row = await rowOf(id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(open(id, row.secret)).toBe('whsec_written_in_clear');
    expect(await sealClearSecrets(db.pool, api.webhookSecrets, quiet)).toBe(0);
  });
});
