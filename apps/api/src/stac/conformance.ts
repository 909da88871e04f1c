/**
 * The conformance classes the STAC API declares: only those it implements and its e2e suite checks
 * (test/stac-*.e2e.test.ts; docs/stac.md says which are left for later and why).
 */
const cql2 = (name: string) => `http://www.opengis.net/spec/cql2/1.0/conf/${name}`;

export const conformsTo: readonly string[] = [
  'https://api.stacspec.org/v1.0.0/core',
  'https://api.stacspec.org/v1.0.0/collections',
  'https://api.stacspec.org/v1.0.0/ogcapi-features',
  'https://api.stacspec.org/v1.0.0/item-search',
  'https://api.stacspec.org/v1.0.0-rc.2/children',
  // Every item reachable by child and item links: browse pages continue what a container links (docs/stac.md).
  'https://api.stacspec.org/v1.0.0/browseable',
  // The aggregation extension on /aggregate, with its filter (CQL2) and query parameters (docs/stac.md).
  'https://api.stacspec.org/v0.3.0/aggregation',
  'https://api.stacspec.org/v0.3.0/aggregation#filter',
  'https://api.stacspec.org/v0.3.0/aggregation#query',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  // The sort extension on the search and on a collection's items (docs/stac.md, "Sort").
  'https://api.stacspec.org/v1.0.0/item-search#sort',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#sort',
  // `/sortables` (and a collection's): the search's as the sort extension spells it, a collection's as
  // OGC API Features Part 5 does.
  'https://api.stacspec.org/v1.0.0/item-search#sortables',
  'https://api.stacspec.org/v1.1.0/item-search#sortables',
  'http://www.opengis.net/spec/ogcapi-features-5/1.0/conf/sortables',
  // The fields extension, as its last release candidate and as implementations spell it (docs/stac.md).
  'https://api.stacspec.org/v1.0.0-rc.3/item-search#fields',
  'https://api.stacspec.org/v1.0.0-rc.3/ogcapi-features#fields',
  'https://api.stacspec.org/v1.0.0/item-search#fields',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#fields',
  // The query extension (its current release candidate, and the spelling implementations use).
  'https://api.stacspec.org/v1.0.0-rc.2/item-search#query',
  'https://api.stacspec.org/v1.0.0-rc.2/ogcapi-features#query',
  'https://api.stacspec.org/v1.0.0/item-search#query',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#query',
  // The free-text extension, advanced form (terms, phrases, AND, OR, groups, signs): the extension asks
  // for one of basic and advanced, whose GET syntaxes differ (docs/stac.md, "Free text").
  'https://api.stacspec.org/v1.0.0-rc.1/item-search#advanced-free-text',
  'https://api.stacspec.org/v1.0.0-rc.1/ogcapi-features#advanced-free-text',
  // Collection search on /collections: bbox, datetime (the simple query) and the same free text.
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search',
  'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/simple-query',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#advanced-free-text',
  // The extension's optional classes on /collections (docs/stac.md, "Collection search"), each as its
  // releases spell it: sort (with /collection-sortables), fields, the query object and CQL2 filter
  // (with /collection-queryables), over a collection's fields, extent and portal timestamps.
  'https://api.stacspec.org/v1.0.0/collection-search',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#sort',
  'https://api.stacspec.org/v1.1.0/collection-search#sort',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#sortables',
  'https://api.stacspec.org/v1.1.0/collection-search#sortables',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#fields',
  'https://api.stacspec.org/v1.0.0/collection-search#fields',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#query',
  'https://api.stacspec.org/v1.0.0-rc.1/collection-search#filter',
  'https://api.stacspec.org/v1.0.0/collection-search#filter',
  // The filter extension: CQL2 on the search and on a collection's items (docs/stac.md, "Filter").
  // The item-search class as each release of the extension spells it: a client looks for its own.
  'https://api.stacspec.org/v1.0.0-rc.2/item-search#filter',
  'https://api.stacspec.org/v1.0.0-rc.3/item-search#filter',
  'https://api.stacspec.org/v1.0.0/item-search#filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  cql2('cql2-text'),
  cql2('cql2-json'),
  cql2('basic-cql2'),
  cql2('advanced-comparison-operators'),
  cql2('case-insensitive-comparison'),
  cql2('accent-insensitive-comparison'),
  cql2('basic-spatial-functions'),
  cql2('basic-spatial-functions-plus'),
  cql2('spatial-functions'),
  cql2('temporal-functions'),
  cql2('array-functions'),
  cql2('property-property'),
  cql2('arithmetic'),
  // The transaction extensions for Items and Collections over the portal's commands (docs/stac.md,
  // "Transactions"); test/stac-transactions.e2e.test.ts. Their ids must be UUIDs. The Item class as the
  // extension's release candidate and as clients and servers spell it.
  'https://api.stacspec.org/v1.0.0-rc.2/ogcapi-features/extensions/transaction',
  'https://api.stacspec.org/v1.0.0/ogcapi-features/extensions/transaction',
  'http://www.opengis.net/spec/ogcapi-features-4/1.0/conf/simpletx',
  'https://api.stacspec.org/v1.0.0/collections/extensions/transaction',
];
