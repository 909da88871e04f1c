import { beforeAll, describe, expect, it } from 'vitest';
import { useSignedInCaller } from './support/auth.js';
import { call } from './support/http.js';
import { seedExtensionFixture, type ExtensionFixture } from './support/stac-extension-fixture.js';
import { createPortalObject, pageToEnd } from './support/stac-fixture.js';
import { expectShape, specError, type SpecItem } from './support/stac-schemas.js';

/**
 * The free-text extension (advanced form) against a brute-force reading of the same items: the words of
 * each item's title, description and keywords, as its STAC JSON shows them. Each `q` is run by GET and
 * by POST, paged to the end, and must answer exactly the items the matching rule below selects; that
 * rule is written out by hand per case (words, phrases, OR, AND, parentheses, + and -), not derived from
 * the parser under test. Two more items check what plain words cannot: hyphens, case beyond ASCII.
 */

useSignedInCaller();

let fixture: ExtensionFixture;
let hyphenated = '';

beforeAll(async () => {
  fixture = await seedExtensionFixture(2026_04);
  hyphenated = await createPortalObject('items', {
    title: 'Sentinel-2A scene',
    description: 'ÉCHO over the sea',
    parentId: fixture.collectionA,
    datetime: '2024-02-02T00:00:00Z',
    properties: { keywords: ['Climate Model', 'EO'] },
  });
}, 180_000);

/** The item's words in order: title, description, keywords (plain ASCII words in the fixture). */
function wordsOf(item: SpecItem): string[] {
  const properties = item.properties as Record<string, unknown>;
  const keywords = Array.isArray(properties.keywords) ? (properties.keywords as string[]) : [];
  const text = [properties.title, properties.description ?? '', ...keywords].join(' ');
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** Whether the words hold the phrase (one word or several, in order, side by side). */
function holds(words: readonly string[], phrase: string): boolean {
  const wanted = phrase.toLowerCase().split(' ');
  return words.some((_, start) => wanted.every((word, offset) => words[start + offset] === word));
}

type Rule = (has: (phrase: string) => boolean) => boolean;

function bruteForce(rule: Rule): Set<string> {
  return new Set(
    fixture.items
      .filter((item) => {
        const words = wordsOf(item);
        return rule((phrase) => holds(words, phrase));
      })
      .map((item) => item.id),
  );
}

async function searchedBothWays(q: string | string[], ids: readonly string[] = fixture.ids) {
  const byGet =
    typeof q === 'string'
      ? await pageToEnd({
          method: 'GET',
          path: `/api/v1/stac/search?ids=${ids.join(',')}&limit=4&q=${encodeURIComponent(q)}`,
        })
      : null;
  const byPost = await pageToEnd({
    method: 'POST',
    path: '/api/v1/stac/search',
    body: { ids, limit: 4, q },
  });
  return { get: byGet === null ? null : new Set(byGet.ids), post: new Set(byPost.ids) };
}

describe('free text: terms, phrases, OR, AND, groups and signs against brute force', () => {
  const cases: [string, Rule][] = [
    ['bravo', (has) => has('bravo')],
    ['BRAVO', (has) => has('bravo')],
    ['bravo echo', (has) => has('bravo') || has('echo')],
    ['bravo OR echo', (has) => has('bravo') || has('echo')],
    ['bravo,echo', (has) => has('bravo') || has('echo')],
    ['bravo AND echo', (has) => has('bravo') && has('echo')],
    ['"alpha bravo"', (has) => has('alpha bravo')],
    ['"bravo alpha"', (has) => has('bravo alpha')],
    ['"golf hotel revised"', (has) => has('golf hotel revised')],
    ['(alpha OR charlie) AND report', (has) => (has('alpha') || has('charlie')) && has('report')],
    ['+alpha -bravo', (has) => has('alpha') && !has('bravo')],
    ['alpha -golf', (has) => has('alpha') && !has('golf')],
    ['-alpha', (has) => !has('alpha')],
    ['charlie +delta -echo', (has) => has('delta') && !has('echo')],
    ['alpha AND -bravo', (has) => has('alpha') && !has('bravo')],
    [
      '(alpha AND delta) OR (echo AND -foxtrot)',
      (has) => (has('alpha') && has('delta')) || (has('echo') && !has('foxtrot')),
    ],
    ['"delta report" OR +hotel', (has) => has('hotel')],
    ['zulu', () => false],
  ];
  it.each(cases)('q=%s', async (q, rule) => {
    const want = bruteForce(rule);
    const found = await searchedBothWays(q);
    expect(found.get).toEqual(want);
    expect(found.post).toEqual(want);
  });

  it('the cases discriminate: most keep some items and drop others', () => {
    const discriminating = cases.filter(([, rule]) => {
      const size = bruteForce(rule).size;
      return size > 0 && size < fixture.items.length;
    });
    expect(discriminating.length).toBeGreaterThanOrEqual(cases.length - 3);
    // Keywords are searched too: some item is found by a word only its keywords hold.
    const byKeywordOnly = fixture.items.some((item) => {
      const properties = item.properties as Record<string, string | string[] | undefined>;
      const keywords = (properties.keywords as string[] | undefined) ?? [];
      const rest =
        `${properties.title as string} ${(properties.description as string | undefined) ?? ''}`.split(' ');
      return keywords.some((keyword) => !rest.includes(keyword));
    });
    expect(byKeywordOnly).toBe(true);
  });

  it('a POST array (the basic form): any of its strings, each a phrase', async () => {
    const found = await searchedBothWays(['alpha bravo', 'echo']);
    expect(found.post).toEqual(bruteForce((has) => has('alpha bravo') || has('echo')));
  });

  it('words as PostgreSQL reads them: hyphenated parts, case beyond ASCII, keywords', async () => {
    const ids = [...fixture.ids, hyphenated];
    for (const q of [
      'sentinel',
      '2a',
      'Sentinel-2A',
      '"sentinel-2a scene"',
      'écho',
      'ÉCHO',
      '"climate model"',
    ]) {
      const found = await searchedBothWays(q, ids);
      expect(found.get, q).toEqual(new Set([hyphenated]));
      expect(found.post, q).toEqual(new Set([hyphenated]));
    }
    // No stemming and no accent folding: the words match whole.
    expect((await searchedBothWays('scenes', ids)).post).toEqual(new Set());
    expect((await searchedBothWays('echo', ids)).post.has(hyphenated)).toBe(false);
  });

  it("a collection's items take q too", async () => {
    const inA = fixture.items.filter((item) => item.collection === fixture.collectionA);
    const { ids } = await pageToEnd({
      method: 'GET',
      path: `/api/v1/stac/collections/${fixture.collectionA}/items?limit=2&q=alpha%20OR%20sentinel`,
    });
    const want = inA.filter((item) => holds(wordsOf(item), 'alpha')).map((item) => item.id);
    expect(new Set(ids)).toEqual(new Set([...want, hyphenated]));
  });
});

describe('free text: bad values answer 400 naming q', () => {
  const bad: [string, string][] = [
    ['nothing', ''],
    ['only spaces and commas', ' , '],
    ['an unclosed phrase', '"alpha bravo'],
    ['an unclosed group', '(alpha OR bravo'],
    ['a ) alone', 'alpha)'],
    ['empty parentheses', '()'],
    ['AND first', 'AND alpha'],
    ['OR last', 'alpha OR'],
    ['a sign with nothing after it', 'alpha - bravo'],
    ['punctuation only', '...'],
    ['an empty phrase', '""'],
    ['too many terms', Array.from({ length: 51 }, (_, n) => `w${n}`).join(' ')],
    ['too long', 'a'.repeat(1001)],
    ['nested too deep', `${'('.repeat(12)}alpha${')'.repeat(12)}`],
  ];
  it.each(bad)('%s', async (_name, q) => {
    const byGet = await call<{ message: string }>('GET', `/api/v1/stac/search?q=${encodeURIComponent(q)}`);
    expect(byGet.status, JSON.stringify(byGet.body)).toBe(400);
    expectShape(specError, byGet.body);
    expect(byGet.body.message).toMatch(/^q: /);
    const byPost = await call<{ message: string }>('POST', '/api/v1/stac/search', { body: { q } });
    expect(byPost.status).toBe(400);
    expect(byPost.body.message).toMatch(/^q: /);
  });

  it('POST: q of the wrong type, an empty list, an empty string in it', async () => {
    for (const q of [5, [], [''], ['alpha', 3], { text: 'alpha' }]) {
      const answer = await call<{ message: string }>('POST', '/api/v1/stac/search', { body: { q } });
      expect(answer.status, JSON.stringify(q)).toBe(400);
      expect(answer.body.message).toMatch(/(^|body: )q/);
    }
  });

  it('conformance declares the advanced free-text classes', async () => {
    const { body } = await call<{ conformsTo: string[] }>('GET', '/api/v1/stac/conformance');
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0-rc.1/item-search#advanced-free-text',
        'https://api.stacspec.org/v1.0.0-rc.1/ogcapi-features#advanced-free-text',
      ]),
    );
  });
});
