import { randomBytes, randomUUID } from 'node:crypto';
import { SecretBox, SecretBoxError, webhookSecretContext } from '@portal/platform';
import { describe, expect, it } from 'vitest';
import type { DeliveryTarget } from './endpoint-store.js';
import { signingSecretsOf } from './signing-secrets.js';

const box = new SecretBox(randomBytes(32));
const id = randomUUID();
const sealed = (secret: string) => box.seal(secret, webhookSecretContext(id));
const expiry = new Date('2025-06-02T12:00:00.000Z');
const errors: unknown[] = [];
const logger = { error: (...args: unknown[]) => void errors.push(args) };

const target = (fields: Partial<DeliveryTarget>): DeliveryTarget => ({
  id,
  orgId: randomUUID(),
  url: 'https://hooks.example.org/',
  secret: sealed('whsec_new'),
  previousSecret: sealed('whsec_old'),
  previousSecretExpiresAt: expiry,
  active: true,
  ...fields,
});

describe('the secrets a delivery is signed with', () => {
  it('are the new and the previous one during the grace period, the new one from its end on', () => {
    const before = new Date(expiry.getTime() - 1);
    expect(signingSecretsOf(box, target({}), before, logger)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecretsOf(box, target({}), expiry, logger)).toEqual(['whsec_new']);
    expect(
      signingSecretsOf(box, target({ previousSecret: null, previousSecretExpiresAt: null }), before, logger),
    ).toEqual(['whsec_new']);
  });

  it('still read a secret stored in clear text before secrets were sealed', () => {
    const legacy = target({ secret: 'whsec_legacy', previousSecret: null, previousSecretExpiresAt: null });
    expect(signingSecretsOf(box, legacy, expiry, logger)).toEqual(['whsec_legacy']);
  });

  it('fail loudly when a secret does not open with this key', () => {
    const other = new SecretBox(randomBytes(32));
    const foreign = target({ secret: other.seal('whsec_new', webhookSecretContext(id)) });
    expect(() => signingSecretsOf(box, foreign, expiry, logger)).toThrow(SecretBoxError);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors)).not.toContain('whsec_new');
  });
});
