import type { FieldsShape } from './fields-request.js';

/**
 * The fields extension on `/collections` (docs/stac.md, "Collection search"): paths from the
 * Collection's root as given (a Collection has no `properties` to nest names under). The default set is
 * what a valid STAC Collection must carry, and `stac_extensions`, as the items' default set keeps it.
 */
export const COLLECTION_FIELDS_SHAPE: FieldsShape = {
  nestUnknownUnder: null,
  topLevel: new Set([
    'type',
    'stac_version',
    'stac_extensions',
    'id',
    'title',
    'description',
    'keywords',
    'license',
    'extent',
    'links',
  ]),
  defaults: ['type', 'stac_version', 'stac_extensions', 'id', 'description', 'license', 'extent', 'links'],
  // Nothing beside an include: a collection search's `fields` has no validator or client asking for more.
  alwaysIncluded: [],
};
