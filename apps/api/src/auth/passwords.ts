import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's block size and parallelism (RFC 7914's interactive-login parameters with N = 2^15). */
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; node refuses above `maxmem`, whose default is exactly 32 MiB.
  const maxmem = 256 * (options.N ?? 0) * (options.r ?? BLOCK_SIZE);
  return new Promise((resolve, reject) => {
    // Normalised, so the same password typed on two keyboards (composed or decomposed) matches.
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

/** A new hash: `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (base64). Its own parameters travel with it. */
export async function hashPassword(password: string, log2Cost: number): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, { N: 2 ** log2Cost, r: BLOCK_SIZE, p: PARALLELISM });
  return ['scrypt', log2Cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join(
    '$',
  );
}

interface ParsedHash {
  readonly options: ScryptOptions;
  readonly salt: Buffer;
  readonly key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const match = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(
    stored,
  );
  if (!match) return null;
  const [, cost, r, p, salt, key] = match;
  return {
    options: { N: 2 ** Number(cost), r: Number(r), p: Number(p) },
    salt: Buffer.from(salt ?? '', 'base64'),
    key: Buffer.from(key ?? '', 'base64'),
  };
}

/** Whether `password` is the one `stored` was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.options);
  return candidate.length === parsed.key.length && timingSafeEqual(candidate, parsed.key);
}

/**
 * A hash of nothing anyone knows, verified against when an email has no account, so a sign-in with an
 * unknown email costs the same scrypt work as one with a wrong password and timing tells nothing.
 */
export class DummyPasswordHash {
  private hash: Promise<string> | undefined;
  constructor(private readonly log2Cost: number) {}

  value(): Promise<string> {
    this.hash ??= hashPassword(randomBytes(16).toString('hex'), this.log2Cost);
    return this.hash;
  }
}
