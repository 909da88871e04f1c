import { randomUUID } from 'node:crypto';
import type { CommandHandling } from '@portal/commands';
import { describeZodError, emailSchema, organizationSlugSchema } from '@portal/contracts';
import { isUuid, organizationStreamId, userStreamId } from '@portal/domain';
import { migrateApiSchemas } from '../../../apps/api/src/migrations/api-migrations.js';
import { findCredentialsByEmail } from '../../../apps/api/src/auth/credential-store.js';
import { organizationIdOfSlug } from '../../../apps/api/src/auth/organization-slugs.js';
import type { AdminContext } from '../cli/command.js';
import { notFound, usageFailure } from '../cli/failure.js';

/**
 * The command library's view of the console: the event store and fresh ids. Organization and user
 * commands go through `handleCommand` like the API's, never into read-model tables.
 */
export async function commandHandling(context: AdminContext): Promise<CommandHandling> {
  return { store: await context.resources.store(), newId: randomUUID };
}

/** The API's `auth` schema as this release has it (a column the console reads may be new). */
export async function authSchemaReady(context: AdminContext): Promise<void> {
  await migrateApiSchemas(context.resources.pool);
}

export interface KnownUser {
  readonly userId: string;
  readonly email: string;
  readonly disabled: boolean;
}

/** The registered user with this email (any case), or a failure naming what is wrong. */
export async function userByEmail(context: AdminContext, email: string): Promise<KnownUser> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw usageFailure(`"${email}" is not an email address`);
  await authSchemaReady(context);
  const credentials = await findCredentialsByEmail(context.resources.pool, parsed.data);
  const store = await context.resources.store();
  const registered =
    credentials !== null && (await store.streamRevision(userStreamId(credentials.userId))) !== null;
  if (!credentials || !registered) throw notFound(`no user with the email ${email}`);
  return { userId: credentials.userId, email: credentials.email, disabled: credentials.disabledAt !== null };
}

/** An organization named by its id or its slug, which must exist. */
export async function organizationByRef(context: AdminContext, ref: string): Promise<string> {
  let orgId: string | null = ref;
  if (!isUuid(ref)) {
    const slug = organizationSlugSchema.safeParse(ref);
    if (!slug.success) {
      throw usageFailure(
        `<org> must be an organization's id or slug: ${describeZodError(slug.error).message}`,
      );
    }
    await authSchemaReady(context);
    orgId = await organizationIdOfSlug(context.resources.pool, slug.data);
  }
  const store = await context.resources.store();
  if (orgId === null || (await store.streamRevision(organizationStreamId(orgId))) === null) {
    throw notFound(`no organization ${ref}`);
  }
  return orgId;
}
