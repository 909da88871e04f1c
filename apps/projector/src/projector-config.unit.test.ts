import { describe, expect, it } from 'vitest';
import { loadProjectorConfig } from './projector-config.js';

describe('loadProjectorConfig', () => {
  it('defaults to the schemas the API reads and the documented backoff', () => {
    expect(loadProjectorConfig({})).toEqual({
      PROJECTOR_READ_SCHEMA: 'read',
      PROJECTOR_OPERATIONS_SCHEMA: 'projector',
      EVENTSTORE_SCHEMA: 'eventstore',
      PROJECTOR_METRICS_PORT: 9465,
      PROJECTOR_RETRY_DELAYS_MS: [100, 400, 1600],
      PROJECTOR_MERGE_PENDING_LISTS_EVERY: 1000,
      PROJECTOR_REBUILD_INDEX_MEMORY: '256MB',
      PROJECTOR_REBUILD_MODE: 'copy',
    });
  });

  it('takes other schemas and delays from the environment', () => {
    const config = loadProjectorConfig({
      PROJECTOR_READ_SCHEMA: 'read_t1',
      PROJECTOR_RETRY_DELAYS_MS: '5,10',
    });
    expect(config.PROJECTOR_READ_SCHEMA).toBe('read_t1');
    expect(config.PROJECTOR_RETRY_DELAYS_MS).toEqual([5, 10]);
  });

  it('stops with one line naming the bad variable', () => {
    expect(() => loadProjectorConfig({ PROJECTOR_READ_SCHEMA: 'Read Model' })).toThrow(
      /^invalid configuration: PROJECTOR_READ_SCHEMA: /,
    );
    expect(() => loadProjectorConfig({ PROJECTOR_RETRY_DELAYS_MS: 'soon' })).toThrow(
      /PROJECTOR_RETRY_DELAYS_MS/,
    );
    expect(() => loadProjectorConfig({ PROJECTOR_REBUILD_INDEX_MEMORY: '1 GB; DROP' })).toThrow(
      /PROJECTOR_REBUILD_INDEX_MEMORY/,
    );
    expect(() => loadProjectorConfig({ PROJECTOR_MERGE_PENDING_LISTS_EVERY: '-1' })).toThrow(
      /PROJECTOR_MERGE_PENDING_LISTS_EVERY/,
    );
  });

  it('takes 0 events between merges of the pending lists: no merges', () => {
    expect(
      loadProjectorConfig({ PROJECTOR_MERGE_PENDING_LISTS_EVERY: '0' }).PROJECTOR_MERGE_PENDING_LISTS_EVERY,
    ).toBe(0);
  });
});
