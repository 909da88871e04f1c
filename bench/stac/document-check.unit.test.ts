import { describe, expect, it } from 'vitest';
import { isDocumentOf } from './document-check.js';
import { readStacOptions, stacOptionSpecs } from './stac-options.js';

const page = JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', id: 'a' }],
  links: [],
});

/** Every option at its default, as a run without flags reads them. */
const defaults = Object.fromEntries(
  Object.entries(stacOptionSpecs).map(([name, spec]) => [name, spec.default]),
) as Record<keyof typeof stacOptionSpecs, string>;

describe('isDocumentOf', () => {
  it('knows a page by its type, read as text or parsed', () => {
    for (const clientBody of ['text', 'json'] as const) {
      expect(isDocumentOf([page], 'FeatureCollection', clientBody)).toBe(true);
      expect(isDocumentOf([page], 'AggregationCollection', clientBody)).toBe(false);
      // Read in pieces, the first of them shorter than the opening member.
      const pieces = [page.slice(0, 5), '', page.slice(5, 40), page.slice(40), ''];
      expect(isDocumentOf(pieces, 'FeatureCollection', clientBody)).toBe(true);
      expect(isDocumentOf(pieces, 'AggregationCollection', clientBody)).toBe(false);
    }
  });

  it('refuses an error body and a body cut short when read as text', () => {
    const error = JSON.stringify({ code: 'BadRequest', description: 'bad bbox', message: 'bad bbox' });
    expect(isDocumentOf([error], 'FeatureCollection', 'text')).toBe(false);
    expect(isDocumentOf([], 'FeatureCollection', 'text')).toBe(false);
    expect(isDocumentOf([page.slice(0, 40), page.slice(40, -1)], 'FeatureCollection', 'text')).toBe(false);
    // An item's own "type" further in is not the document's.
    expect(isDocumentOf([`{"features":[{"type":"FeatureCollection"}]}`], 'FeatureCollection', 'text')).toBe(
      false,
    );
  });
});

describe('the client options', () => {
  it("read text bodies through node's HTTP client by default, and take json and fetch", () => {
    expect(readStacOptions(defaults)).toMatchObject({ clientBody: 'text', httpClient: 'node' });
    expect(readStacOptions({ ...defaults, 'client-body': 'json', 'http-client': 'fetch' })).toMatchObject({
      clientBody: 'json',
      httpClient: 'fetch',
    });
  });

  it.each([
    ['client-body', 'xml', '--client-body takes text or json, got "xml"'],
    ['http-client', 'curl', '--http-client takes node or fetch, got "curl"'],
  ] as const)('--%s names the values it takes when given "%s"', (option, value, message) => {
    expect(() => readStacOptions({ ...defaults, [option]: value })).toThrow(message);
  });
});
