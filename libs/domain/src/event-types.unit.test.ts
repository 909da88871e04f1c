import { describe, expect, it } from 'vitest';
import { eventFamilies, eventTypes, isEventType, typesWhere } from './event-types.js';
import { structureEventTypes } from './structure/events.js';

describe('the domain event types', () => {
  it('lists every type once, the structure bookkeeping among them', () => {
    expect(new Set(eventTypes).size).toBe(eventTypes.length);
    expect(eventTypes.filter((type) => eventFamilies[type] === 'structure')).toEqual(structureEventTypes);
  });

  it('knows its own types and no others', () => {
    expect(isEventType('CatalogCreated')).toBe(true);
    expect(isEventType('SomethingElse')).toBe(false);
  });

  it('turns a handling map into the set of the types it follows', () => {
    const followed = typesWhere({
      ...Object.fromEntries(eventTypes.map((type) => [type, false])),
      UserRegistered: true,
    } as Record<(typeof eventTypes)[number], boolean>);
    expect([...followed]).toEqual(['UserRegistered']);
  });
});
