import { randomBytes } from 'node:crypto';
import { organizationStreamId, slugify, type EventStore } from '@portal/domain';
import type { Pool } from '@portal/platform';
import { LEFTOVER_AFTER_SECONDS } from './credential-store.js';

const MAX_SLUG_LENGTH = 63;
const DERIVED_ATTEMPTS = 5;

/** Claims `slug` for `orgId`, taking over one left by a create that never appended its event. */
async function reserveSlug(pool: Pool, store: EventStore, slug: string, orgId: string): Promise<boolean> {
  const inserted = await pool.query(
    'INSERT INTO auth.organization_slugs (slug, org_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [slug, orgId],
  );
  if (inserted.rowCount === 1) return true;
  const leftover = await pool.query<{ org_id: string }>(
    `SELECT org_id FROM auth.organization_slugs
      WHERE slug = $1 AND created_at < now() - make_interval(secs => ${LEFTOVER_AFTER_SECONDS})`,
    [slug],
  );
  const previous = leftover.rows[0]?.org_id;
  if (previous === undefined) return false;
  if ((await store.readStream(organizationStreamId(previous))).length > 0) return false;
  const taken = await pool.query(
    'UPDATE auth.organization_slugs SET org_id = $2, created_at = now() WHERE slug = $1 AND org_id = $3',
    [slug, orgId, previous],
  );
  return taken.rowCount === 1;
}

/** `name` as a slug short enough to take a suffix; `organization` when nothing of it is left. */
export function slugBaseOf(name: string): string {
  const base = slugify(name)
    .slice(0, MAX_SLUG_LENGTH - 9)
    .replace(/-+$/, '');
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(base) ? base : 'organization';
}

/**
 * Reserves a slug for a new organization: the one asked for (`null` when taken), or one derived from the
 * name, with a short random suffix when the plain one is taken.
 */
export async function reserveOrganizationSlug(
  pool: Pool,
  store: EventStore,
  orgId: string,
  wanted: { readonly slug: string } | { readonly name: string },
): Promise<string | null> {
  // A retry for the same organization (a sign-in finishing a sign-up) keeps what it reserved.
  const held = await pool.query<{ slug: string }>(
    'SELECT slug FROM auth.organization_slugs WHERE org_id = $1',
    [orgId],
  );
  const heldSlug = held.rows[0]?.slug;
  if (heldSlug !== undefined) return heldSlug;
  if ('slug' in wanted) return (await reserveSlug(pool, store, wanted.slug, orgId)) ? wanted.slug : null;
  const base = slugBaseOf(wanted.name);
  for (let attempt = 0; attempt < DERIVED_ATTEMPTS; attempt += 1) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(4).toString('hex')}`;
    if (await reserveSlug(pool, store, slug, orgId)) return slug;
  }
  return null;
}

export async function releaseOrganizationSlug(pool: Pool, orgId: string): Promise<void> {
  await pool.query('DELETE FROM auth.organization_slugs WHERE org_id = $1', [orgId]);
}

/** The organization holding `slug`, whether or not its creation finished; `null` when none does. */
export async function organizationIdOfSlug(pool: Pool, slug: string): Promise<string | null> {
  const result = await pool.query<{ org_id: string }>(
    'SELECT org_id FROM auth.organization_slugs WHERE slug = $1',
    [slug],
  );
  return result.rows[0]?.org_id ?? null;
}
