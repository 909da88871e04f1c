import { typesOf, type EventType, type eventFamilies } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { acceptanceOf, rejectionOf } from './test-support/parse.js';
import { registerWebhookBodySchema, webhookEventTypes } from './webhooks.js';

/**
 * What the dispatcher can deliver: every event type of the domain's one list in an object's or an
 * organization's family (a user's own events and the structure bookkeeping belong to no organization).
 */
type Delivered = {
  [T in EventType]: (typeof eventFamilies)[T] extends 'portal-object' | 'organization' ? T : never;
}[EventType];
type Listed = (typeof webhookEventTypes)[number];
// Compile-time, both ways: a new event type of the domain must be listed, and every listed one must exist.
const everyDeliveredTypeIsListed: [Exclude<Delivered, Listed>] extends [never]
  ? true
  : Exclude<Delivered, Listed> = true;
const everyListedTypeExists: [Exclude<Listed, Delivered>] extends [never]
  ? true
  : Exclude<Listed, Delivered> = true;

const bodyWith = (eventTypes: unknown) => ({ url: 'https://hooks.example.org/in', eventTypes });

describe('webhook registration: eventTypes', () => {
  it('lists exactly the event types the domain records for an organization', () => {
    expect([everyDeliveredTypeIsListed, everyListedTypeExists]).toEqual([true, true]);
    expect(new Set(webhookEventTypes).size).toBe(webhookEventTypes.length);
    expect(new Set(webhookEventTypes)).toEqual(typesOf('portal-object', 'organization'));
  });

  it('accepts "*" and every known event type', () => {
    acceptanceOf(registerWebhookBodySchema, bodyWith(['*']));
    acceptanceOf(registerWebhookBodySchema, bodyWith([...webhookEventTypes]));
  });

  it('answers one message naming each unknown type and listing the valid ones', () => {
    const refused = rejectionOf(
      registerWebhookBodySchema,
      bodyWith(['CatalogCreated', 'CatalogCreatd', 'catalogcreated', 'CatalogCreatd']),
    );
    expect(refused.details).toHaveLength(1);
    expect(refused.message).toMatch(/^eventTypes: unknown event types "CatalogCreatd", "catalogcreated"; /);
    for (const type of ['*', ...webhookEventTypes]) expect(refused.message).toContain(type);
  });

  it('refuses an empty list, a list of non-strings and overlong names', () => {
    expect(rejectionOf(registerWebhookBodySchema, bodyWith([])).message).toBe(
      'eventTypes: must have at least 1 event type',
    );
    expect(rejectionOf(registerWebhookBodySchema, bodyWith([1])).message).toBe(
      'eventTypes[0]: must be a string',
    );
    expect(rejectionOf(registerWebhookBodySchema, bodyWith(['x'.repeat(101)])).message).toMatch(
      /^eventTypes\[0\]: must be at most 100 characters/,
    );
  });
});
