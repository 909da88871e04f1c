import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createdWebhookSchema, webhookDeliveryPageSchema, webhookSchema } from '@portal/contracts';
import { addMember, signUp, type SignedInUser } from './support/auth.js';
import { settleCommandAt } from './support/command-answer.js';
import { call, callAt, expectCommand, expectMatchesContract } from './support/http.js';
import { signUpAt } from './support/pipeline-key.js';
import { startStack, type Stack } from './support/stack.js';
import {
  signaturesOf,
  startReceiver,
  verifySignature,
  type ReceivedDelivery,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

interface CreatedWebhook {
  id: string;
  secret: string;
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
}

interface DeliveryPage {
  items: {
    eventId: string;
    eventType: string;
    attempt: number;
    statusCode: number | null;
    succeeded: boolean;
    deliveryId: string;
    error: string | null;
  }[];
}

async function register(
  user: { headers: Record<string, string> },
  body: Record<string, unknown>,
  at?: string,
): Promise<CreatedWebhook> {
  const response = at
    ? await callAt<CreatedWebhook>(at, 'POST', '/api/v1/webhooks', { headers: user.headers, body })
    : await call<CreatedWebhook>('POST', '/api/v1/webhooks', { headers: user.headers, body });
  await settleCommandAt(at ?? inject('baseUrl'), response, 201, 'register');
  return response.body;
}

async function createCatalogAs(headers: Record<string, string>, title: string, at?: string): Promise<string> {
  const body = { title, description: 'webhook test', links: [] };
  const response = at
    ? await callAt<{ portalItemId: string }>(at, 'POST', '/api/v1/portal/catalogs/create', { headers, body })
    : await call<{ portalItemId: string }>('POST', '/api/v1/portal/catalogs/create', { headers, body });
  await settleCommandAt(at ?? inject('baseUrl'), response, 201, 'create catalog');
  return response.body.portalItemId;
}

const about = (catalogId: string) => (delivery: ReceivedDelivery) => delivery.body.object?.id === catalogId;

describe('webhooks', () => {
  let owner: SignedInUser;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    owner = await signUp({ name: 'Hook Owner' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('signs every delivery, retries after 500s with growing waits, and lists every attempt', async () => {
    const webhook = await register(owner, {
      url: receiver.url,
      eventTypes: ['CatalogCreated'],
      description: 'ci',
    });
    expectMatchesContract(createdWebhookSchema, webhook);
    expect(webhook.secret).toMatch(/^whsec_/);
    receiver.secret = webhook.secret;
    // The first two attempts of each delivery fail; the third is taken.
    receiver.answer = (delivery, received) =>
      received.filter(
        (earlier) => earlier.headers['x-portal-delivery'] === delivery.headers['x-portal-delivery'],
      ).length < 2
        ? 500
        : 200;

    const catalogId = await createCatalogAs(owner.headers, 'Delivered');
    const seen = (await receiver.waitFor((all) => all.filter(about(catalogId)).length >= 3)).filter(
      about(catalogId),
    );

    expect(seen.map((delivery) => delivery.answered)).toEqual([500, 500, 200]);
    expect(seen.every((delivery) => delivery.signatureValid)).toBe(true);
    expect(new Set(seen.map((delivery) => delivery.headers['x-portal-delivery'])).size).toBe(1);
    const [first, second, third] = seen as [ReceivedDelivery, ReceivedDelivery, ReceivedDelivery];
    // WEBHOOK_RETRY_DELAY_MS (1 s), doubling: at least 1 s, then 2 s, between the attempts.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(900);
    expect(third.receivedAt - second.receivedAt).toBeGreaterThanOrEqual(1800);
    expect(first.headers['x-portal-event']).toBe('CatalogCreated');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.body).toMatchObject({
      type: 'CatalogCreated',
      organizationId: owner.orgId,
      object: { id: catalogId, kind: 'catalog' },
      actor: { id: owner.userId, name: 'Hook Owner' },
      data: { id: catalogId, title: 'Delivered' },
    });
    expect(first.body.id).toMatch(/^\d+\.\d+$/);
    // A body changed in transit no longer matches its signature.
    const { verifySignature } = await import('./support/webhook-receiver.js');
    expect(
      verifySignature(webhook.secret, first.headers['x-portal-signature'] as string, `${first.rawBody} `),
    ).toBe(false);

    const deliveries = await call<DeliveryPage>('GET', `/api/v1/webhooks/${webhook.id}/deliveries?limit=2`, {
      headers: owner.headers,
    });
    expect(deliveries.status).toBe(200);
    expectMatchesContract(webhookDeliveryPageSchema, deliveries.body);
    expect(deliveries.body.items.map((item) => [item.attempt, item.statusCode, item.succeeded])).toEqual([
      [3, 200, true],
      [2, 500, false],
    ]);
    expect(deliveries.body.items[0]).toMatchObject({ eventId: first.body.id, eventType: 'CatalogCreated' });
    const next = (deliveries.body as unknown as { next: string }).next;
    const rest = await call<DeliveryPage>('GET', `/api/v1/webhooks/${webhook.id}/deliveries?cursor=${next}`, {
      headers: owner.headers,
    });
    expect(rest.body.items.map((item) => [item.attempt, item.statusCode, item.error])).toEqual([
      [1, 500, 'the receiver answered 500'],
    ]);

    const shown = await call('GET', `/api/v1/webhooks/${webhook.id}`, { headers: owner.headers });
    expectMatchesContract(webhookSchema, shown.body);
    expect(shown.body).not.toHaveProperty('secret');
    expect(shown.body).toMatchObject({ enabled: true, consecutiveFailures: 0, url: receiver.url });
    const removed = await call('DELETE', `/api/v1/webhooks/${webhook.id}`, { headers: owner.headers });
    await expectCommand(removed, 200, 'delete webhook');
  });

  it("never delivers another organization's events, and records registration without the secret", async () => {
    const other = await signUp({ name: 'Other Org Owner' });
    const otherReceiver = await startReceiver();
    try {
      const webhook = await register(owner, { url: otherReceiver.url, eventTypes: ['*'] });
      otherReceiver.secret = webhook.secret;
      const foreign = await createCatalogAs(other.headers, 'Foreign');
      const own = await createCatalogAs(owner.headers, 'Own');
      // Deliveries to one endpoint are not ordered (docs/webhooks.md): wait for the registration too.
      const isRegistration = (delivery: { body: { type?: unknown } }) =>
        delivery.body.type === 'WebhookRegistered';
      const seen = await otherReceiver.waitFor((all) => all.some(about(own)) && all.some(isRegistration));
      expect(seen.some(about(foreign))).toBe(false);
      expect(seen.every((delivery) => delivery.body.organizationId === owner.orgId)).toBe(true);
      // The endpoint's own registration: its host, never the secret or the URL's path.
      const registered = seen.find((delivery) => delivery.body.type === 'WebhookRegistered');
      expect(registered?.body).toMatchObject({
        data: { webhookId: webhook.id, host: new URL(otherReceiver.url).host },
      });
      expect(registered?.rawBody).not.toContain(webhook.secret);
      expect(registered?.rawBody).not.toContain('/hook');

      const foreignView = await call('GET', `/api/v1/webhooks/${webhook.id}`, { headers: other.headers });
      expect(foreignView.status).toBe(404);
      const foreignList = await call<{ items: unknown[] }>('GET', '/api/v1/webhooks', {
        headers: other.headers,
      });
      expect(foreignList.body.items).toEqual([]);
      await call('DELETE', `/api/v1/webhooks/${webhook.id}`, { headers: owner.headers });
    } finally {
      await otherReceiver.close();
    }
  });

  it('rotates the secret: both secrets sign during the grace period, then the new one alone', async () => {
    const rotating = await startReceiver();
    try {
      const webhook = await register(owner, { url: rotating.url, eventTypes: ['CatalogCreated'] });
      const rotated = await call<CreatedWebhook & { previousSecretExpiresAt: string }>(
        'POST',
        `/api/v1/webhooks/${webhook.id}/rotate-secret`,
        { headers: owner.headers },
      );
      expect(rotated.status).toBe(200);
      expectMatchesContract(createdWebhookSchema, rotated.body);
      const next = rotated.body.secret;
      expect(next).not.toBe(webhook.secret);
      expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 3_600_000);
      // The list shows when, never a secret.
      const listed = await call('GET', `/api/v1/webhooks/${webhook.id}`, { headers: owner.headers });
      expect(JSON.stringify(listed.body)).not.toContain(next);
      expect(listed.body).toMatchObject({ previousSecretExpiresAt: rotated.body.previousSecretExpiresAt });

      const during = await createCatalogAs(owner.headers, 'During the grace period');
      const [graced] = (await rotating.waitFor((all) => all.some(about(during)))).filter(about(during));
      const header = graced?.headers['x-portal-signature'] as string;
      expect(signaturesOf(header)).toHaveLength(2);
      const raw = graced?.rawBody ?? '';
      expect(verifySignature(next, header, raw)).toBe(true);
      expect(verifySignature(webhook.secret, header, raw)).toBe(true);
      // The new secret's signature comes first, the old one's second.
      expect(verifySignature(next, header.split(',').slice(0, 2).join(','), raw)).toBe(true);
      expect(
        verifySignature(webhook.secret, [header.split(',')[0], header.split(',')[2]].join(','), raw),
      ).toBe(true);

      // A leaked secret: rotating with no grace period ends the previous one at once.
      const urgent = await call<CreatedWebhook>('POST', `/api/v1/webhooks/${webhook.id}/rotate-secret`, {
        headers: owner.headers,
        body: { gracePeriodSeconds: 0 },
      });
      expect(urgent.status).toBe(200);
      const after = await createCatalogAs(owner.headers, 'After the grace period');
      const [single] = (await rotating.waitFor((all) => all.some(about(after)))).filter(about(after));
      const last = single?.headers['x-portal-signature'] as string;
      expect(signaturesOf(last)).toHaveLength(1);
      expect(verifySignature(urgent.body.secret, last, single?.rawBody ?? '')).toBe(true);
      expect(verifySignature(next, last, single?.rawBody ?? '')).toBe(false);

      const editor = await addMember(owner, await signUp(), 'editor');
      const byEditor = await call('POST', `/api/v1/webhooks/${webhook.id}/rotate-secret`, {
        headers: editor.headers,
      });
      expect(byEditor.status).toBe(403);
      await call('DELETE', `/api/v1/webhooks/${webhook.id}`, { headers: owner.headers });
    } finally {
      await rotating.close();
    }
  });

  it('refuses viewers and editors, and anonymous callers', async () => {
    const viewer = await addMember(owner, await signUp(), 'viewer');
    const editor = await addMember(owner, await signUp(), 'editor');
    for (const member of [viewer, editor]) {
      const created = await call('POST', '/api/v1/webhooks', {
        headers: member.headers,
        body: { url: receiver.url, eventTypes: ['*'] },
      });
      expect(created.status).toBe(403);
      expect((await call('GET', '/api/v1/webhooks', { headers: member.headers })).status).toBe(403);
    }
    expect((await call('GET', '/api/v1/webhooks', { as: 'anonymous' })).status).toBe(401);
  });

  it('refuses URLs the service must not call, with a message naming the rule', async () => {
    const refused = async (url: string) => {
      const response = await call<{ message: string }>('POST', '/api/v1/webhooks', {
        headers: owner.headers,
        body: { url, eventTypes: ['*'] },
      });
      expect(response.status).toBe(400);
      return response.body.message;
    };
    expect(await refused('http://hooks.example.org/in')).toMatch(/https/);
    expect(await refused('https://10.1.2.3/in')).toMatch(/private network/);
    expect(await refused('https://169.254.169.254/latest/meta-data')).toMatch(/not a routable/);
    expect(await refused('https://user:pw@hooks.example.org/in')).toMatch(/user name or password/);
    expect(await refused('ftp://hooks.example.org/in')).toMatch(/https/);
    expect(await refused('not a url')).toMatch(/absolute URL/);
    const badTypes = await call<{ message: string }>('POST', '/api/v1/webhooks', {
      headers: owner.headers,
      body: { url: receiver.url, eventTypes: [] },
    });
    expect(badTypes.status).toBe(400);
    expect(badTypes.body.message).toMatch(/eventTypes/);
    const unknownType = await call<{ message: string }>('POST', '/api/v1/webhooks', {
      headers: owner.headers,
      body: { url: receiver.url, eventTypes: ['CatalogCreated', 'CatalogCreatd'] },
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.message).toContain('"CatalogCreatd"');
    expect(unknownType.body.message).toContain('PortalObjectUpdated');
  });
});

describe('an endpoint that keeps failing', () => {
  let stack: Stack;
  let failing: WebhookReceiver;
  let watcher: WebhookReceiver;

  beforeAll(async () => {
    stack = await startStack({
      WEBHOOK_ATTEMPTS: '2',
      WEBHOOK_RETRY_DELAY_MS: '50',
      WEBHOOK_DISABLE_AFTER_FAILURES: '2',
      WEBHOOK_DISPATCH_INTERVAL_MS: '200',
    });
    failing = await startReceiver('/failing');
    watcher = await startReceiver('/watcher');
  });
  afterAll(async () => {
    await failing.close();
    await watcher.close();
    await stack.stop();
  });

  it('is disabled with a reason after WEBHOOK_DISABLE_AFTER_FAILURES failed deliveries, and can be enabled again', async () => {
    const admin = await ownerAt(stack.baseUrl);
    failing.answer = () => 500;
    const webhook = await register(
      admin,
      { url: failing.url, eventTypes: ['CatalogCreated'] },
      stack.baseUrl,
    );
    failing.secret = webhook.secret;
    const audit = await register(
      admin,
      { url: watcher.url, eventTypes: ['WebhookDisabled', 'WebhookEnabled'] },
      stack.baseUrl,
    );
    watcher.secret = audit.secret;

    await createCatalogAs(admin.headers, 'First', stack.baseUrl);
    await createCatalogAs(admin.headers, 'Second', stack.baseUrl);
    // Two deliveries of two attempts each, all refused; then WebhookDisabled reaches the other endpoint.
    const disabledEvent = await watcher.waitFor((all) => all.some((d) => d.body.type === 'WebhookDisabled'));
    const event = disabledEvent.find((d) => d.body.type === 'WebhookDisabled');
    expect(event?.signatureValid).toBe(true);
    expect(event?.body).toMatchObject({ actor: null, data: { webhookId: webhook.id } });
    expect(failing.received).toHaveLength(4);
    expect(failing.received.every((delivery) => delivery.signatureValid)).toBe(true);

    const shown = await callAt<CreatedWebhook>(stack.baseUrl, 'GET', `/api/v1/webhooks/${webhook.id}`, {
      headers: admin.headers,
    });
    expect(shown.body.enabled).toBe(false);
    expect(shown.body.disabledReason).toMatch(
      /2 deliveries in a row failed after 2 attempts each.*answered 500/,
    );
    const attempts = await callAt<DeliveryPage>(
      stack.baseUrl,
      'GET',
      `/api/v1/webhooks/${webhook.id}/deliveries`,
      {
        headers: admin.headers,
      },
    );
    expect(attempts.body.items.map((item) => item.succeeded)).toEqual([false, false, false, false]);

    // Disabled: the next event is not sent to it. Once enabled, events after that are.
    failing.answer = () => 200;
    const skipped = await createCatalogAs(admin.headers, 'While disabled', stack.baseUrl);
    const enabled = await callAt<CreatedWebhook>(
      stack.baseUrl,
      'POST',
      `/api/v1/webhooks/${webhook.id}/enable`,
      {
        headers: admin.headers,
      },
    );
    await settleCommandAt(stack.baseUrl, enabled, 200, 'enable');
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    await watcher.waitFor((all) => all.some((d) => d.body.type === 'WebhookEnabled'));
    const resumed = await createCatalogAs(admin.headers, 'After enable', stack.baseUrl);
    await failing.waitFor((all) => all.some(about(resumed)));
    expect(failing.received.some(about(skipped))).toBe(false);
  });
});

/** An owner at a stack of its own, with session headers (cookie and CSRF token). */
async function ownerAt(baseUrl: string): Promise<{ headers: Record<string, string> }> {
  const { cookie, csrfToken } = await signUpAt(baseUrl, 'Hooks');
  return { headers: { cookie, 'x-csrf-token': csrfToken } };
}
