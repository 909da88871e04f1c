import { describe, expect, it } from 'vitest';
import { MAX_BATCH_COMMANDS } from './batch.js';
import { MAX_DELETE_IDS } from './catalogs.js';
import { DEFAULT_LICENSE, KEYWORD_MAX, LICENSE_MAX, MAX_KEYWORDS } from './collections.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './common.js';
import { MAX_EXTENT_ENTRIES } from './extent.js';
import { CONTENT_TYPE_MAX, FILE_NAME_MAX, MAX_UPLOAD_BYTES } from './items.js';
import { LINK_HREF_MAX, LINK_TEXT_MAX, MAX_LINKS } from './link.js';
import { DESCRIPTION_MAX, TITLE_MAX } from './portal-fields.js';

// The other tests derive their cases from these constants; this pins the constants to the contract
// and to the bounds the README documents, so changing one is a visible decision.
describe('documented bounds', () => {
  it('match the contract', () => {
    expect({ LINK_TEXT_MAX, LINK_HREF_MAX, TITLE_MAX, DESCRIPTION_MAX }).toEqual({
      LINK_TEXT_MAX: 140,
      LINK_HREF_MAX: 2048,
      TITLE_MAX: 140,
      DESCRIPTION_MAX: 1000,
    });
  });

  it('match the README', () => {
    expect({
      MAX_LINKS,
      LICENSE_MAX,
      KEYWORD_MAX,
      MAX_KEYWORDS,
      DEFAULT_LICENSE,
      MAX_EXTENT_ENTRIES,
      FILE_NAME_MAX,
      CONTENT_TYPE_MAX,
      MAX_UPLOAD_BYTES,
      MAX_DELETE_IDS,
      MAX_BATCH_COMMANDS,
      DEFAULT_PAGE_LIMIT,
      MAX_PAGE_LIMIT,
    }).toEqual({
      MAX_LINKS: 100,
      LICENSE_MAX: 140,
      KEYWORD_MAX: 140,
      MAX_KEYWORDS: 100,
      DEFAULT_LICENSE: 'other',
      MAX_EXTENT_ENTRIES: 100,
      FILE_NAME_MAX: 255,
      CONTENT_TYPE_MAX: 255,
      MAX_UPLOAD_BYTES: 5 * 2 ** 40,
      MAX_DELETE_IDS: 100,
      MAX_BATCH_COMMANDS: 100,
      DEFAULT_PAGE_LIMIT: 50,
      MAX_PAGE_LIMIT: 1000,
    });
  });
});
