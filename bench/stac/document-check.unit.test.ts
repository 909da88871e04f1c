import { describe, expect, it } from 'vitest';
import { isDocumentOf } from './document-check.js';
import { readStacOptions, stacOptionSpecs } from './stac-options.js';

const page = JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', id: 'a' }],
  links: [],
});

describe('isDocumentOf', () => {
  it('knows a page by its type, read as text or parsed', () => {
    for (const clientBody of ['text', 'json'] as const) {
      expect(isDocumentOf(page, 'FeatureCollection', clientBody)).toBe(true);
      expect(isDocumentOf(page, 'AggregationCollection', clientBody)).toBe(false);
    }
  });

  it('refuses an error body and a body cut short when read as text', () => {
    const error = JSON.stringify({ code: 'BadRequest', description: 'bad bbox', message: 'bad bbox' });
    expect(isDocumentOf(error, 'FeatureCollection', 'text')).toBe(false);
    expect(isDocumentOf(page.slice(0, -1), 'FeatureCollection', 'text')).toBe(false);
    // An item's own "type" further in is not the document's.
    expect(isDocumentOf(`{"features":[{"type":"FeatureCollection"}]}`, 'FeatureCollection', 'text')).toBe(
      false,
    );
  });
});

describe('--client-body', () => {
  const defaults = Object.fromEntries(
    Object.entries(stacOptionSpecs).map(([name, spec]) => [name, spec.default]),
  ) as Record<keyof typeof stacOptionSpecs, string>;

  it('reads text by default and takes json', () => {
    expect(readStacOptions(defaults).clientBody).toBe('text');
    expect(readStacOptions({ ...defaults, 'client-body': 'json' }).clientBody).toBe('json');
  });

  it('names the values it takes when given another', () => {
    expect(() => readStacOptions({ ...defaults, 'client-body': 'xml' })).toThrow(
      '--client-body takes text or json, got "xml"',
    );
  });
});

describe('--http-client', () => {
  it("sends through node's HTTP client by default", () => {
    const defaults = Object.fromEntries(
      Object.entries(stacOptionSpecs).map(([name, spec]) => [name, spec.default]),
    ) as Record<keyof typeof stacOptionSpecs, string>;
    expect(readStacOptions(defaults).httpClient).toBe('node');
    expect(readStacOptions({ ...defaults, 'http-client': 'fetch' }).httpClient).toBe('fetch');
  });
});
