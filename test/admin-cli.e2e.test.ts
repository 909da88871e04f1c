import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { UploadQueue } from '@portal/uploads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJson, runAdmin, TEST_OPERATOR } from './support/admin-cli.js';
import { settleCommandAt, waitForPositionAt } from './support/command-answer.js';
import { callAt } from './support/http.js';
import { parseExposition } from './support/prometheus-text.js';
import { startStack, type Stack } from './support/stack.js';
import { signUpUserAt, type StackUser } from './support/stack-user.js';
import { fileOf, putPart, type Descriptor } from './support/uploads.js';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/**
 * The operator console (`npm run admin`) against a stack of its own: the newcomer's first commands,
 * organizations, users, webhooks and uploads. Dead letters and the rebuild are in
 * admin-cli-projection.e2e.test.ts (they stop the projector). Every change the console makes is checked
 * through the API, as a client meets it.
 */

interface StatusAnswer {
  projection: {
    checkpoint: string;
    head: string;
    lagEvents: number;
    lagSeconds: number;
    halted: boolean;
    leader: { pid: number; applicationName: string | null } | null;
    deadLetters: { open: number; total: number };
  };
  uploadQueue: Record<string, number>;
}

interface Organization {
  id: string;
  slug: string;
  role: string;
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    // No proxy in front, as on a newcomer's machine: the API port then serves local metrics.
    TRUST_PROXY: 'false',
    // The sweep would re-enqueue a lost completion on its own; here the console does.
    UPLOAD_SWEEP_INTERVAL_MS: '3600000',
    WEBHOOK_ATTEMPTS: '1',
    WEBHOOK_DISABLE_AFTER_FAILURES: '1',
    WEBHOOK_DISPATCH_INTERVAL_MS: '200',
  });
});

afterAll(async () => {
  await stack.stop();
});

function get<T = Record<string, unknown>>(path: string, headers: Record<string, string> = {}) {
  return callAt<T>(stack.baseUrl, 'GET', path, { headers });
}

async function organizationsOf(user: StackUser): Promise<Organization[]> {
  const listed = await get<{ items: Organization[] }>('/api/auth/organization/list', user.headers);
  expect(listed.status).toBe(200);
  return listed.body.items;
}

async function untilTrue(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a newcomer: curl localhost:$PORT/metrics and npm run admin -- status', () => {
  it('serves the API metrics on the API port to a local request no proxy relayed, uncounted', async () => {
    const response = await fetch(`${stack.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = parseExposition(await response.text());
    expect(families.has('portal_http_request_duration_seconds')).toBe(true);
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    // The same registry as the metrics listener, and a scrape is no request of the API's.
    const again = parseExposition(await (await fetch(`${stack.baseUrl}/metrics`)).text());
    const routes = [...(again.get('portal_http_request_duration_seconds_count')?.samples ?? [])].map(
      (sample) => sample.labels['route'],
    );
    expect(routes).not.toContain('/metrics');
    expect((await fetch(stack.metricsUrls.api)).status).toBe(200);
  });

  it('refuses a request a proxy relayed, with a message saying where metrics are', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ]) {
      const refused = await callAt<{ message: string; code: string }>(stack.baseUrl, 'GET', '/metrics', {
        headers,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
      expect(refused.body.message).toContain('METRICS_PORT');
    }
  });

  it('status shows the projection caught up under a leader, no dead letters, and the upload queue', async () => {
    await signUpUserAt(stack.baseUrl, 'Newcomer');
    let status: StatusAnswer | null = null;
    await untilTrue('the projection to catch up under a leader', async () => {
      status = await adminJson<StatusAnswer>(stack, ['status']);
      return status.projection.leader !== null && status.projection.lagEvents === 0;
    });
    const { projection, uploadQueue } = status as unknown as StatusAnswer;
    expect(projection.checkpoint).toBe(projection.head);
    expect(projection.checkpoint).not.toBe('-1.-1');
    expect(projection.lagSeconds).toBe(0);
    expect(projection.halted).toBe(false);
    expect(projection.leader?.applicationName).toBe('projector');
    expect(projection.deadLetters).toEqual({ open: 0, total: 0 });
    expect(Object.keys(uploadQueue).sort()).toEqual([
      'active',
      'delayed',
      'failed',
      'prioritized',
      'waiting',
    ]);

    const text = await runAdmin(stack, ['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/checkpoint +\d+\.\d+ \(head \d+\.\d+\)/);
    expect(text.stdout).toMatch(/leader +projector \(pid \d+/);
    expect(text.stdout).toContain('halted        no');
  });
});

describe('help, usage errors and unreachable services', () => {
  it('--help lists every command and the exit codes; a command explains itself', async () => {
    const help = await runAdmin(stack, ['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'status',
      'dead-letters list',
      'dead-letters retry <id>',
      'dead-letters skip <id>',
      'rebuild',
      'uploads list',
      'uploads show <itemId>',
      'uploads requeue <itemId>',
      'orgs create <slug>',
      'orgs make-owner <org> <user-email>',
      'users disable <email>',
      'webhooks list',
      'webhooks enable <id>',
    ]) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toMatch(/exit codes:[\s\S]*5 {2}PostgreSQL or Redis could not be reached/);
    const skip = await runAdmin(stack, ['dead-letters', 'skip', '--help']);
    expect(skip.code).toBe(0);
    expect(skip.stdout).toContain(
      'usage: npm run admin -- dead-letters skip <id> [--reason <text>] [--json]',
    );
    const group = await runAdmin(stack, ['uploads']);
    expect(group.code).toBe(2);
    expect(group.stdout).toContain('uploads requeue <itemId>');
  });

  it('answers a wrong command line with exit 2 and says what to fix, also as JSON', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['dead-letters', 'retry'], /missing <id>/],
      [['dead-letters', 'retry', '1', '2'], /unexpected argument "2"/],
      [['dead-letters', 'list', '--state', 'lost'], /--state must be one of open, applied, skipped, passed/],
      [['uploads', 'show', 'not-an-id'], /must be an item's id \(a UUID\)/],
      [
        ['orgs', 'create', 'Not A Slug', '--name', 'X', '--owner', 'a@example.org'],
        /<slug>: must be lower-case/,
      ],
      [['users', 'disable', 'not-an-email'], /is not an email address/],
      [['status', '--verbose'], /Unknown option '--verbose'/],
    ];
    for (const [args, message] of cases) {
      const run = await runAdmin(stack, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const json = await adminJson<{ error: { code: string; exitCode: number; message: string } }>(
      stack,
      ['webhooks', 'enable', 'nope'],
      2,
    );
    expect(json.error).toMatchObject({ code: 'USAGE', exitCode: 2 });
  });

  it('reports PostgreSQL or Redis out of reach with exit 5; status still shows the projection without Redis', async () => {
    const noDatabase = await runAdmin(stack, ['status'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/portal',
    });
    expect(noDatabase.code).toBe(5);
    expect(noDatabase.stderr).toContain('cannot reach PostgreSQL (DATABASE_URL)');
    const noRedis = await runAdmin(stack, ['uploads', 'list'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(noRedis.code).toBe(5);
    expect(noRedis.stderr).toContain('cannot reach Redis (REDIS_URL)');
    const partial = await runAdmin(stack, ['status', '--json'], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(partial.code).toBe(0);
    const answer = JSON.parse(partial.stdout) as { projection: unknown; uploadQueue: { error?: string } };
    expect(answer.projection).toBeTruthy();
    expect(answer.uploadQueue.error).toContain('cannot reach Redis');
  });
});

describe('organizations and users, through the command handler', () => {
  it('orgs create makes an organization its owner sees; a taken slug or an unknown owner is refused', async () => {
    const ada = await signUpUserAt(stack.baseUrl, 'Ada');
    const slug = `acme-${randomUUID().slice(0, 8)}`;
    const created = await adminJson<{
      id: string;
      slug: string;
      position: string;
      owner: { userId: string };
    }>(stack, ['orgs', 'create', slug, '--name', 'Acme Corp', '--owner', ada.email.toUpperCase()]);
    expect(created).toMatchObject({ slug, owner: { userId: ada.userId } });
    await waitForPositionAt(stack.baseUrl, created.position);
    expect(await organizationsOf(ada)).toContainEqual(
      expect.objectContaining({ id: created.id, slug, role: 'owner' }),
    );

    const taken = await runAdmin(stack, ['orgs', 'create', slug, '--name', 'Again', '--owner', ada.email]);
    expect(taken.code).toBe(4);
    expect(taken.stderr).toContain(`the slug ${slug} is taken`);
    const nobody = await runAdmin(stack, [
      'orgs',
      'create',
      `${slug}-2`,
      '--name',
      'Nobody',
      '--owner',
      'nobody-here@example.org',
    ]);
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('no user with the email nobody-here@example.org');
  });

  it('orgs make-owner promotes a member, adds anyone else as owner, and leaves an owner alone', async () => {
    const owner = await signUpUserAt(stack.baseUrl, 'Owner');
    const stranger = await signUpUserAt(stack.baseUrl, 'Stranger');
    const added = await adminJson<{ change: string; position: string }>(stack, [
      'orgs',
      'make-owner',
      owner.orgId,
      stranger.email,
    ]);
    expect(added.change).toBe('added');
    await waitForPositionAt(stack.baseUrl, added.position);
    expect(await organizationsOf(stranger)).toContainEqual(
      expect.objectContaining({ id: owner.orgId, role: 'owner' }),
    );
    // The organization's audit feed shows the member the operator added: no user acted, the operator did.
    const audit = await get<{
      items: { actor: { id: string | null }; data: { userId?: string }; operator: string | null }[];
    }>('/api/v1/audit/events?type=MemberAdded', owner.headers);
    expect(audit.body.items.find((item) => item.data.userId === stranger.userId)).toMatchObject({
      actor: { id: null },
      data: { role: 'owner', invitationId: null },
      operator: TEST_OPERATOR,
    });
    expect(audit.body.items.find((item) => item.data.userId === owner.userId)?.operator).toBeNull();

    const again = await adminJson<{ change: string; position: string | null }>(stack, [
      'orgs',
      'make-owner',
      owner.orgId,
      stranger.email,
    ]);
    expect(again).toMatchObject({ change: 'already-owner', position: null });
    const unknownOrg = await runAdmin(stack, ['orgs', 'make-owner', 'no-such-organization', stranger.email]);
    expect(unknownOrg.code).toBe(3);
    expect(unknownOrg.stderr).toContain('no organization no-such-organization');
  });

  it('users disable locks an account out of every credential, once, and the reason is recorded', async () => {
    const carol = await signUpUserAt(stack.baseUrl, 'Carol');
    const keyAnswer = await callAt<{ key: string }>(stack.baseUrl, 'POST', '/api/auth/api-key/create', {
      headers: carol.headers,
      body: { name: 'pipeline', role: 'editor' },
    });
    await settleCommandAt(stack.baseUrl, keyAnswer, 201, 'api-key/create');
    const keyHeaders = { authorization: `Bearer ${keyAnswer.body.key}` };
    expect((await get('/api/v1/users/me', carol.headers)).status).toBe(200);
    expect((await get('/api/v1/users/me', keyHeaders)).status).toBe(200);

    const disabled = await adminJson<{ alreadyDisabled: boolean; reason: string; position: string }>(stack, [
      'users',
      'disable',
      carol.email,
      '--reason',
      'left the company',
    ]);
    expect(disabled).toMatchObject({ alreadyDisabled: false, reason: 'left the company' });

    const session = await get<{ message: string }>('/api/v1/users/me', carol.headers);
    expect(session.status).toBe(401);
    expect(session.body.message).toContain('disabled');
    expect((await get('/api/v1/users/me', keyHeaders)).status).toBe(401);
    const signIn = await callAt<{ message: string }>(stack.baseUrl, 'POST', '/api/auth/sign-in/email', {
      body: { email: carol.email, password: carol.password },
    });
    expect(signIn.status).toBe(401);
    expect(signIn.body.message).toBe('this account is disabled; ask the operator of this service');
    const wrongPassword = await callAt<{ message: string }>(
      stack.baseUrl,
      'POST',
      '/api/auth/sign-in/email',
      {
        body: { email: carol.email, password: 'not her password' },
      },
    );
    expect(wrongPassword.body.message).toBe('the email or the password is wrong');

    const again = await adminJson<{ alreadyDisabled: boolean; position: string | null }>(stack, [
      'users',
      'disable',
      carol.email,
    ]);
    expect(again).toMatchObject({ alreadyDisabled: true, position: null });
    const owner = await signUpUserAt(stack.baseUrl, 'Owner');
    const refused = await runAdmin(stack, ['orgs', 'make-owner', owner.orgId, carol.email]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('is disabled');
    expect((await runAdmin(stack, ['users', 'disable', 'nobody-at-all@example.org'])).code).toBe(3);
  });
});

describe('webhooks', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver('/admin-cli');
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('lists a disabled endpoint with the reason, enables it again, and deliveries resume', async () => {
    const admin = await signUpUserAt(stack.baseUrl, 'Hooks');
    receiver.answer = () => 500;
    const registered = await callAt<{ id: string }>(stack.baseUrl, 'POST', '/api/v1/webhooks', {
      headers: admin.headers,
      body: { url: receiver.url, eventTypes: ['CatalogCreated'] },
    });
    await settleCommandAt(stack.baseUrl, registered, 201, 'register webhook');
    const webhookId = registered.body.id;
    const createCatalog = async (title: string): Promise<string> => {
      const created = await callAt<{ portalItemId: string }>(
        stack.baseUrl,
        'POST',
        '/api/v1/portal/catalogs/create',
        { headers: admin.headers, body: { title, description: 'webhook', links: [] } },
      );
      await settleCommandAt(stack.baseUrl, created, 201, 'create catalog');
      return created.body.portalItemId;
    };
    await createCatalog('Refused');
    await untilTrue('the endpoint to be disabled', async () => {
      const shown = await get<{ enabled: boolean }>(`/api/v1/webhooks/${webhookId}`, admin.headers);
      return !shown.body.enabled;
    });

    interface Listed {
      items: {
        id: string;
        organizationId: string;
        host: string;
        enabled: boolean;
        disabledReason: string | null;
      }[];
    }
    const listed = await adminJson<Listed>(stack, ['webhooks', 'list', '--disabled', '--org', admin.orgId]);
    expect(listed.items).toEqual([
      expect.objectContaining({
        id: webhookId,
        organizationId: admin.orgId,
        host: new URL(receiver.url).host,
        enabled: false,
        disabledReason: expect.stringContaining('answered 500') as unknown,
      }),
    ]);
    // The URL may hold the receiver's token: the console shows its host only.
    expect(JSON.stringify(listed)).not.toContain(receiver.url);
    const all = await adminJson<Listed>(stack, ['webhooks', 'list']);
    expect(all.items.map((item) => item.id)).toContain(webhookId);

    receiver.answer = () => 200;
    const enabled = await adminJson<{ enabled: boolean; wasEnabled: boolean; position: string }>(stack, [
      'webhooks',
      'enable',
      webhookId,
    ]);
    expect(enabled).toMatchObject({ enabled: true, wasEnabled: false });
    await waitForPositionAt(stack.baseUrl, enabled.position);
    const shown = await get<{ enabled: boolean; disabledReason: string | null }>(
      `/api/v1/webhooks/${webhookId}`,
      admin.headers,
    );
    expect(shown.body).toMatchObject({ enabled: true, disabledReason: null });
    const resumed = await createCatalog('Delivered');
    await receiver.waitFor((all) => all.some((delivery) => delivery.body.object?.id === resumed));

    const again = await adminJson<{ wasEnabled: boolean; position: string | null }>(stack, [
      'webhooks',
      'enable',
      webhookId,
    ]);
    expect(again).toMatchObject({ wasEnabled: true, position: null });
    expect((await runAdmin(stack, ['webhooks', 'enable', randomUUID()])).code).toBe(3);
  });
});

describe('uploads', () => {
  it('lists and shows a completion job, requeues one that was lost, and refuses an item with nothing to complete', async () => {
    const owner = await signUpUserAt(stack.baseUrl, 'Uploader');
    const collection = await callAt<{ portalItemId: string }>(
      stack.baseUrl,
      'POST',
      '/api/v1/portal/collections/create',
      { headers: owner.headers, body: { title: 'Scenes', description: 'uploads', links: [] } },
    );
    await settleCommandAt(stack.baseUrl, collection, 201, 'create collection');
    await stack.stopApp('uploadWorker');
    const file = fileOf(2048);
    const created = await callAt<Descriptor>(stack.baseUrl, 'POST', '/api/v1/portal/items/create', {
      headers: owner.headers,
      body: { title: 'Scene', parentId: collection.body.portalItemId, links: [], size: file.length },
    });
    await settleCommandAt(stack.baseUrl, created, 201, 'create item');
    const itemId = created.body.portalItemId;
    const [part] = created.body.partUrls;
    const etag = await putPart(part?.url ?? '', file);
    const completion = await callAt(stack.baseUrl, 'POST', `/api/v1/portal/items/${itemId}/upload/complete`, {
      headers: owner.headers,
      body: { parts: [{ partNumber: 1, etag }] },
    });
    expect(completion.status).toBe(202);
    await waitForPositionAt(stack.baseUrl, completion.headers.get('x-event-position') ?? '');

    interface Listed {
      jobs: { itemId: string; state: string; attemptsMade: number }[];
      withoutJob: { itemId: string }[];
    }
    const waiting = await adminJson<Listed>(stack, ['uploads', 'list', '--state', 'waiting']);
    expect(waiting.jobs).toContainEqual(
      expect.objectContaining({ itemId, state: 'waiting', attemptsMade: 0 }),
    );
    expect(waiting.withoutJob.map((lost) => lost.itemId)).not.toContain(itemId);
    const shown = await adminJson<{ status: string; readModel: { status: string }; job: { state: string } }>(
      stack,
      ['uploads', 'show', itemId],
    );
    expect(shown).toMatchObject({
      status: 'processing',
      readModel: { status: 'processing' },
      job: { state: 'waiting' },
    });
    const pending = await adminJson<{ enqueued: boolean; jobState: string }>(stack, [
      'uploads',
      'requeue',
      itemId,
    ]);
    expect(pending).toEqual(expect.objectContaining({ enqueued: false, jobState: 'waiting' }));

    // Redis lost the job (restarted without persistence): the completion waits with no job at all.
    const redis = new Redis(stack.env.REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
    const queue = new UploadQueue(redis, stack.env.QUEUE_PREFIX ?? '', { attempts: 1, delayMs: 10 });
    try {
      await (await queue.completionJob(created.body.uploadId))?.remove();
    } finally {
      await queue.close();
      await redis.quit();
    }
    const lost = await adminJson<Listed>(stack, ['uploads', 'list']);
    expect(lost.withoutJob.map((entry) => entry.itemId)).toContain(itemId);
    expect((await adminJson<{ job: unknown }>(stack, ['uploads', 'show', itemId])).job).toBeNull();

    const requeued = await adminJson<{ enqueued: boolean }>(stack, ['uploads', 'requeue', itemId]);
    expect(requeued.enqueued).toBe(true);
    await stack.restart('uploadWorker');
    await untilTrue('the item to be ready', async () => {
      const item = await get<{ status: string }>(`/api/v1/portal/items/${itemId}`, owner.headers);
      return item.body.status === 'ready';
    });

    const done = await runAdmin(stack, ['uploads', 'requeue', itemId]);
    expect(done.code).toBe(4);
    expect(done.stderr).toContain('waits for no completion (its upload is ready)');
    expect((await runAdmin(stack, ['uploads', 'show', randomUUID()])).code).toBe(3);
    expect((await runAdmin(stack, ['uploads', 'requeue', randomUUID()])).code).toBe(3);
  });
});
