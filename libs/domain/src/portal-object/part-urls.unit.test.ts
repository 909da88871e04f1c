import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { createdByCreator, newId } from './decider-test-kit.js';
import type { PortalObjectEvent } from './events.js';
import { noItemMetadata } from './item-events.js';
import { checkPartUrlRequest } from './part-urls.js';
import { foldState } from './state.js';

const NOW = '2026-11-21T12:00:00.000Z';

function uploading(id: string, partCount: number | null = 3): PortalObjectEvent {
  return {
    type: 'ItemUploadStarted',
    data: {
      id,
      title: 'Scene',
      description: null,
      parentId: newId(),
      links: [],
      metadata: noItemMetadata,
      upload: {
        uploadId: 'upload-1',
        bucket: 'portal-assets',
        key: `items/${id}/data`,
        partSize: 5 * 1024 ** 2,
        partCount,
        size: null,
        fileName: null,
        contentType: null,
        expiresAt: '2026-11-22T00:00:00.000Z',
      },
      ...createdByCreator,
    },
  };
}

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('fresh part URLs', () => {
  const request = (id: string, partNumbers: number[], now = NOW) => ({
    id,
    partNumbers,
    ancestorDeleted: false,
    now,
  });

  it('answers the item when its upload is open and has the parts', () => {
    const id = newId();
    expect(checkPartUrlRequest(foldState([uploading(id)]), request(id, [1, 3])).id).toBe(id);
    expect(checkPartUrlRequest(foldState([uploading(id, null)]), request(id, [9_999])).id).toBe(id);
  });

  it('refuses parts beyond the upload, naming the first', () => {
    const id = newId();
    const error = refusal(() => checkPartUrlRequest(foldState([uploading(id)]), request(id, [2, 4, 5])));
    expect([error.code, error.message]).toEqual([
      'INVALID_COMMAND',
      'part 4 is beyond the 3 parts of this upload',
    ]);
  });

  it('refuses an expired, a processing and an unknown upload', () => {
    const id = newId();
    const started = uploading(id);
    expect(
      refusal(() => checkPartUrlRequest(foldState([started]), request(id, [1], '2026-11-23T00:00:00.000Z')))
        .code,
    ).toBe('INVALID_STATE');
    const processing = foldState([
      started,
      { type: 'UploadCompletionRequested', data: { id, uploadId: 'upload-1', parts: null } },
    ]);
    expect(refusal(() => checkPartUrlRequest(processing, request(id, [1]))).message).toMatch(
      /processing: its upload takes no more parts/,
    );
    expect(refusal(() => checkPartUrlRequest(foldState([]), request(id, [1]))).code).toBe('NOT_FOUND');
    expect(
      refusal(() => checkPartUrlRequest(foldState([started]), { ...request(id, [1]), ancestorDeleted: true }))
        .code,
    ).toBe('NOT_FOUND');
  });
});
