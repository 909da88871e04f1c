import { describe, expect, it } from 'vitest';
import { downloadHeadersOf } from './download-headers.js';

const key = 'items/6f1c2b8e-4d3a-4b7e-9c1d-2a3b4c5d6e7f/data';

describe('downloadHeadersOf', () => {
  it.each([
    'text/html',
    'text/html; charset=utf-8',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/xml',
    'application/pdf',
    'text/plain',
    'application/javascript',
    'image/tiff',
    'application/octet-stream',
    'nonsense',
    '',
  ])('makes %j an attachment of neutral type', (contentType) => {
    expect(downloadHeadersOf(key, { fileName: null, contentType })).toEqual({
      contentDisposition: `attachment; filename="data"; filename*=UTF-8''data`,
      contentType: 'application/octet-stream',
    });
  });

  it('does the same without a declared type', () => {
    expect(downloadHeadersOf(key, { fileName: null, contentType: null }).contentDisposition).toMatch(
      /^attachment;/,
    );
  });

  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', ' IMAGE/PNG ; q=1'])(
    'shows %j inline under its bare type',
    (contentType) => {
      const headers = downloadHeadersOf(key, { fileName: 'map.png', contentType });
      expect(headers.contentDisposition).toMatch(/^inline; filename="map.png"/);
      expect(headers.contentType).toBe(contentType.split(';')[0]?.trim().toLowerCase());
    },
  );

  it('names the file, quoting what a plain filename cannot hold', () => {
    expect(
      downloadHeadersOf(key, { fileName: 'Report "2024" — final.bin', contentType: 'text/csv' })
        .contentDisposition,
    ).toBe(
      `attachment; filename="Report _2024_ _ final.bin"; filename*=UTF-8''Report%20%222024%22%20%E2%80%94%20final.bin`,
    );
  });
});
