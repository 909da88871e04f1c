import { describe, expect, it } from 'vitest';
import { browseHref, invitationHref, nodeHref, parseRoute, signInHref } from './routes.js';

describe('routes', () => {
  it('reads the slug path of a browse URL, percent-decoded', () => {
    expect(parseRoute('/app/')).toEqual({ name: 'browse', slugs: [] });
    expect(parseRoute('/app')).toEqual({ name: 'browse', slugs: [] });
    expect(parseRoute('/app/browse/land-cover/sentinel-2')).toEqual({
      name: 'browse',
      slugs: ['land-cover', 'sentinel-2'],
    });
    expect(parseRoute('/app/browse/caf%C3%A9/%E5%9C%B0%E5%9B%BE')).toEqual({
      name: 'browse',
      slugs: ['café', '地图'],
    });
    expect(parseRoute('/app/browse/%E0%A4%A')).toEqual({ name: 'not-found', path: '/app/browse/%E0%A4%A' });
  });

  it('builds the same URLs back, so a shared link opens the same node', () => {
    for (const path of ['land-cover/sentinel-2', 'café/地图', 'a/b/c']) {
      const href = browseHref(path);
      const route = parseRoute(href);
      expect(route).toEqual({ name: 'browse', slugs: path.split('/') });
    }
    expect(browseHref(null)).toBe('/app/');
    expect(browseHref([])).toBe('/app/');
  });

  it('links a node below a hidden ancestor by id, since it has no path', () => {
    expect(nodeHref({ id: 'abc', path: null })).toBe('/app/nodes/abc');
    expect(parseRoute('/app/nodes/abc')).toEqual({ name: 'node', id: 'abc' });
    expect(nodeHref({ id: 'abc', path: 'x/y' })).toBe('/app/browse/x/y');
  });

  it('opens the invitations page with the invitation of a passed-on link filled in', () => {
    const href = invitationHref('0b7f6c1e-1111-4222-8333-944445555666');
    const url = new URL(href, 'http://localhost');
    expect(parseRoute(url.pathname, url.search)).toEqual({
      name: 'invitations',
      id: '0b7f6c1e-1111-4222-8333-944445555666',
    });
    expect(parseRoute('/app/invitations')).toEqual({ name: 'invitations', id: null });
  });

  it('names the pages, and sends anything else to not-found', () => {
    expect(parseRoute('/app/inventory').name).toBe('inventory');
    expect(parseRoute('/app/account').name).toBe('account');
    expect(parseRoute('/app/inventory/extra').name).toBe('not-found');
    expect(parseRoute('/elsewhere').name).toBe('not-found');
  });

  it('takes a sign-in `next` only when it is a path of this app (no open redirect)', () => {
    expect(parseRoute('/app/sign-in', `?next=${encodeURIComponent('/app/browse/a')}`)).toEqual({
      name: 'sign-in',
      next: '/app/browse/a',
    });
    expect(parseRoute('/app/sign-in', '?next=https%3A%2F%2Fevil.example')).toEqual({
      name: 'sign-in',
      next: null,
    });
    expect(parseRoute('/app/sign-in', '?next=%2F%2Fevil.example%2Fapp%2F')).toEqual({
      name: 'sign-in',
      next: null,
    });
    expect(signInHref('/app/x')).toBe('/app/sign-in?next=%2Fapp%2Fx');
  });
});
