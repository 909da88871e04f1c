import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { SecretBox, SecretBoxError } from './secret-box.js';
import { webhookSecretBox } from './webhook-secret-key.js';

const box = new SecretBox(randomBytes(32));
const secret = 'whsec_AbCdEf0123456789';
const context = 'webhook:0b0f4f8e-3c2a-4e53-9a4a-6f1f5c1d2e3f';

function openFails(sealed: string, within = box, where = context): SecretBoxError {
  try {
    within.open(sealed, where);
  } catch (error) {
    if (error instanceof SecretBoxError) return error;
    throw error;
  }
  throw new Error('the sealed secret opened');
}

/** Changes one character of part `index` (0-based, of the six colon-separated parts). */
function changed(sealed: string, index: number): string {
  const parts = sealed.split(':');
  const part = parts[index] ?? '';
  parts[index] = `${part[0] === 'A' ? 'B' : 'A'}${part.slice(1)}`;
  return parts.join(':');
}

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed, and never shows the secret in the sealed text', () => {
    const sealed = box.seal(secret, context);
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{16}:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    expect(sealed).not.toContain(secret);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(SecretBox.isSealed(secret)).toBe(false);
    expect(box.open(sealed, context)).toBe(secret);
  });

  it('seals the same secret differently every time (a fresh IV)', () => {
    expect(box.seal(secret, context)).not.toBe(box.seal(secret, context));
  });

  it('detects a changed IV, ciphertext or tag', () => {
    const sealed = box.seal(secret, context);
    for (const part of [3, 4, 5])
      expect(openFails(changed(sealed, part)).message).toMatch(/does not open|damaged/);
  });

  it('does not open in another context: a sealed value copied to another row', () => {
    const sealed = box.seal(secret, context);
    expect(openFails(sealed, box, 'webhook:another').message).toContain('does not open');
  });

  it('refuses another key, saying so, and a key id changed to look like this one', () => {
    const other = new SecretBox(randomBytes(32));
    const sealed = other.seal(secret, context);
    expect(openFails(sealed).message).toContain('another key');
    const relabelled = sealed.replace(other.keyId, box.keyId);
    expect(openFails(relabelled).message).toContain('does not open');
  });

  it('refuses text of no known format and keys of the wrong length', () => {
    expect(openFails('whsec_plain').message).toContain('format');
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
  });
});

describe('the webhook secret key from the configuration', () => {
  const quiet = { warn: () => undefined };

  it('uses WEBHOOK_SECRET_KEY: two processes with it open each other’s secrets', () => {
    const key = randomBytes(32).toString('base64');
    const config = loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key });
    const api = webhookSecretBox(config, quiet);
    const worker = webhookSecretBox(config, quiet);
    expect(worker.open(api.seal(secret, context), context)).toBe(secret);
  });

  it('is required in production', () => {
    expect(() => webhookSecretBox(loadConfig({ NODE_ENV: 'production' }), quiet)).toThrow(
      /WEBHOOK_SECRET_KEY: is required/,
    );
  });

  it('is the one development key elsewhere, with a warning each time', () => {
    const warnings: string[] = [];
    const warn = { warn: (message: string) => void warnings.push(message) };
    const api = webhookSecretBox(loadConfig({ NODE_ENV: 'test' }), warn);
    const worker = webhookSecretBox(loadConfig({ NODE_ENV: 'development' }), warn);
    expect(worker.open(api.seal(secret, context), context)).toBe(secret);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('WEBHOOK_SECRET_KEY is not set');
  });

  it('refuses a key that is not 32 bytes of base64', () => {
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(
      /WEBHOOK_SECRET_KEY/,
    );
  });
});
