/** Valid request bodies for tests; each call returns a fresh object a test may mutate. */

export const someId = '6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e';

export function validLink(): Record<string, unknown> {
  return {
    title: 'Source',
    href: 'https://example.org/data',
    rel: 'related',
    type: 'text/html',
    targetType: 'external',
    linkJson: {},
  };
}

export function validCatalogBody(): Record<string, unknown> {
  return { title: 'Climate', description: 'Climate data', links: [validLink()] };
}

export function validExtent(): Record<string, unknown> {
  return {
    spatial: { bbox: [[-10, 35, 30, 60]] },
    temporal: { interval: [['2020-01-01T00:00:00Z', null]] },
  };
}

export function validCollectionBody(): Record<string, unknown> {
  return { ...validCatalogBody(), license: 'CC-BY-4.0', keywords: ['climate'], extent: validExtent() };
}

export function validItemBody(): Record<string, unknown> {
  return { title: 'Temperature 2024', links: [] };
}
