import { callAt } from '../http.js';
import { signUpAt } from '../pipeline-key.js';

/** The signed-up user the fuzzer acts as, and ids of real objects for its requests to name. */
export interface FuzzSubject {
  readonly credentials: { readonly jwt: Record<string, string>; readonly 'api-key': Record<string, string> };
  readonly knownIds: readonly string[];
}

/** What the creates below answer: an object's id, an API key, an item's part URLs. */
interface Created {
  readonly portalItemId: string;
  readonly key: string;
  readonly partUrls: readonly { readonly url: string }[];
}

/** A create that must succeed; `202` (the projector slower than the API waits) is a success too. */
async function expectCreated(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ body: Created }> {
  const response = await callAt<Created>(baseUrl, 'POST', path, { headers, body });
  if (response.status !== 201 && response.status !== 202) {
    throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return { body: response.body };
}

/**
 * A new user (session, JWT, owner-role API key) owning a catalog, a collection and an item whose upload
 * is complete, so requests that name real ids get past "not found" into the code behind it.
 */
export async function prepareFuzzSubject(baseUrl: string): Promise<FuzzSubject> {
  const session = await signUpAt(baseUrl, 'Fuzzer');
  const browser = { cookie: session.cookie, 'x-csrf-token': session.csrfToken };
  const me = await callAt<{ user: { id: string }; session: { activeOrganizationId: string } }>(
    baseUrl,
    'GET',
    '/api/auth/get-session',
    { headers: browser },
  );
  const token = await callAt<{ token: string }>(baseUrl, 'POST', '/api/auth/token', { headers: browser });
  const key = await expectCreated(baseUrl, '/api/auth/api-key/create', browser, {
    name: 'fuzzer',
    role: 'owner',
  });
  const apiKey = { authorization: `Bearer ${key.body.key}` };

  const catalog = await expectCreated(baseUrl, '/api/v1/portal/catalogs/create', apiKey, {
    title: 'Fuzz catalog',
    description: 'objects the fuzzer may name',
    links: [],
  });
  const collection = await expectCreated(baseUrl, '/api/v1/portal/collections/create', apiKey, {
    title: 'Fuzz collection',
    description: 'x',
    links: [],
    parentId: catalog.body.portalItemId,
  });
  const bytes = Buffer.from('fuzz file');
  const item = await expectCreated(baseUrl, '/api/v1/portal/items/create', apiKey, {
    title: 'Fuzz item',
    links: [],
    parentId: collection.body.portalItemId,
    size: bytes.length,
  });
  const put = await fetch(item.body.partUrls[0]?.url ?? '', { method: 'PUT', body: bytes });
  if (put.status !== 200) throw new Error(`part PUT answered ${put.status}`);
  const itemId = item.body.portalItemId;
  await callAt(baseUrl, 'POST', `/api/v1/portal/items/${itemId}/upload/complete`, { headers: apiKey });
  let assetIds: string[] = [];
  for (let attempt = 0; attempt < 100 && assetIds.length === 0; attempt += 1) {
    const record = await callAt<{ assets?: { id: string }[] }>(
      baseUrl,
      'GET',
      `/api/v1/portal/items/${itemId}`,
      {
        headers: apiKey,
      },
    );
    assetIds = (record.body.assets ?? []).map((asset) => asset.id);
    if (assetIds.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    credentials: { jwt: { authorization: `Bearer ${token.body.token}` }, 'api-key': apiKey },
    knownIds: [
      catalog.body.portalItemId,
      collection.body.portalItemId,
      itemId,
      ...assetIds,
      me.body.user.id,
      me.body.session.activeOrganizationId,
    ],
  };
}
