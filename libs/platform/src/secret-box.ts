import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const FORMAT = 'enc:v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

/** A sealed text that cannot be opened: another key, a changed byte, another context, not sealed at all. */
export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

const base64url = (bytes: Buffer): string => bytes.toString('base64url');

/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV per seal, authenticated, bound to a context
 * (the row it belongs to, as additional data) so a sealed value copied to another row does not open.
 * Sealed text: `enc:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts). The key id is a digest of
 * the key, so a value sealed with another key is told apart from a tampered one, and a later key
 * rotation can pick the key by it.
 */
export class SecretBox {
  readonly keyId: string;
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRET_KEY_BYTES) {
      throw new RangeError(`a secret box key is ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
    }
    this.#key = Buffer.from(key);
    this.keyId = createHash('sha256')
      .update('portal secret box key id\0')
      .update(key)
      .digest('hex')
      .slice(0, 16);
  }

  static isSealed(text: string): boolean {
    return text.startsWith(`${FORMAT}:`);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, this.keyId, base64url(iv), base64url(ciphertext), base64url(tag)].join(':');
  }

  open(sealed: string, context: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== FORMAT) {
      throw new SecretBoxError('not a sealed secret of a known format');
    }
    const [, , keyId, iv, ciphertext, tag] = parts as [string, string, string, string, string, string];
    if (keyId !== this.keyId) {
      throw new SecretBoxError(`sealed with another key (key id ${keyId}; this key is ${this.keyId})`);
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
      throw new SecretBoxError('the sealed secret is damaged');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed secret does not open: it was changed, or belongs to another row');
    }
  }
}
