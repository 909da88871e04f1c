import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, retryDelayMs, retrySchedule } from './backoff.js';
import { signatureHeader } from './signature.js';
import { deliveryIdOf, deliveryJobId } from './webhook-queue.js';

describe('signatureHeader', () => {
  const secret = 'whsec_test';
  const body = '{"id":"12.3","type":"CatalogCreated"}';
  const at = new Date('2025-06-01T12:00:00.999Z');

  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const header = signatureHeader([secret], body, at);
    const expected = createHmac('sha256', secret).update(`1748779200.${body}`).digest('hex');
    expect(header).toBe(`t=1748779200,v1=${expected}`);
  });

  it('carries one v1 per secret, in the order given', () => {
    const previous = 'whsec_previous';
    const header = signatureHeader([secret, previous], body, at);
    const hmac = (key: string) => createHmac('sha256', key).update(`1748779200.${body}`).digest('hex');
    expect(header).toBe(`t=1748779200,v1=${hmac(secret)},v1=${hmac(previous)}`);
  });

  it('changes with the body, the secret and the time', () => {
    const header = signatureHeader([secret], body, at);
    expect(signatureHeader([secret], `${body} `, at)).not.toBe(header);
    expect(signatureHeader(['whsec_other'], body, at)).not.toBe(header);
    expect(signatureHeader([secret], body, new Date(at.getTime() + 1000))).not.toBe(header);
  });
});

describe('retry schedule', () => {
  it('doubles from the first delay: the defaults wait 1, 2, 4 … 64 s between eight attempts', () => {
    expect(retrySchedule(8, 1000)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000]);
  });

  it('has no wait for a single attempt and is capped at an hour', () => {
    expect(retrySchedule(1, 1000)).toEqual([]);
    expect(retryDelayMs(30, 1000)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(0, 250)).toBe(250);
  });
});

describe('delivery ids', () => {
  const webhookId = '11111111-1111-4111-8111-111111111111';
  const eventId = '22222222-2222-4222-8222-222222222222';

  it('are the same for the same endpoint and event, and differ otherwise', () => {
    expect(deliveryJobId(webhookId, eventId)).toBe(deliveryJobId(webhookId, eventId));
    expect(deliveryJobId(webhookId, eventId)).not.toBe(deliveryJobId(eventId, webhookId));
    expect(deliveryIdOf(webhookId, eventId)).toBe(deliveryIdOf(webhookId, eventId));
  });

  it('keep to what BullMQ and receivers accept', () => {
    expect(deliveryJobId(webhookId, eventId)).toMatch(/^webhook-[0-9a-f]{40}$/);
    expect(deliveryIdOf(webhookId, eventId)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
