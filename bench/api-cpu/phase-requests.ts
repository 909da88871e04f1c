import type { Probe } from '../browser/closed-loop.js';
import type { Phase } from './api-cpu-options.js';
import type { SeededPortal } from './seed-portal.js';

/** 201/200 answered after projection; 202 when the projection was slower than the wait. */
const ANSWERED = new Set([200, 201, 202]);

function request(
  baseUrl: string,
  headers: Record<string, string>,
  method: string,
  path: (sequence: number) => string,
  body?: (sequence: number) => unknown,
): Probe {
  return async (sequence) => {
    const response = await fetch(`${baseUrl}${path(sequence)}`, {
      method,
      headers: { ...headers, accept: 'application/json', 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body(sequence)) } : {}),
    });
    await response.arrayBuffer();
    return ANSWERED.has(response.status);
  };
}

const pick = <T>(items: readonly T[], sequence: number): T => items[sequence % items.length] as T;

/** The request each phase repeats, as a pipeline (creates, renames) or a frontend (reads) sends it. */
export function phaseProbe(
  phase: Phase,
  baseUrl: string,
  credential: Record<string, string>,
  portal: SeededPortal,
): Probe {
  const create = (headers: Record<string, string>) =>
    request(
      baseUrl,
      headers,
      'POST',
      () => '/api/v1/portal/catalogs/create',
      (n) => ({
        title: `Created ${n}`,
        description: 'By the API CPU bench',
        links: [],
        parentId: pick(portal.childIds, n),
      }),
    );
  switch (phase) {
    case 'create-async':
      return create({ ...credential, prefer: 'respond-async' });
    case 'create':
      return create(credential);
    case 'patch':
      return request(
        baseUrl,
        credential,
        'PATCH',
        (n) => `/api/v1/portal/items/${pick(portal.childIds, n)}`,
        (n) => ({ title: `Renamed ${n}` }),
      );
    case 'item':
      return request(baseUrl, credential, 'GET', (n) => `/api/v1/portal/items/${pick(portal.childIds, n)}`);
    case 'children':
      return request(
        baseUrl,
        credential,
        'GET',
        () => `/api/v1/browser/nodes/${portal.wideId}/children?limit=100`,
      );
    case 'breadcrumbs':
      return request(baseUrl, credential, 'GET', () => `/api/v1/browser/nodes/${portal.deepId}/breadcrumbs`);
    case 'path':
      return request(baseUrl, credential, 'GET', () => `/api/v1/browser/path/${portal.deepSlugs.join('/')}`);
    case 'static':
      // No query, no state: what every request pays before its route does anything.
      return request(baseUrl, credential, 'GET', () => '/api/v1/stac/conformance');
  }
}
