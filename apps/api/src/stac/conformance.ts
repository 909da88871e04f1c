/**
 * The conformance classes the STAC API declares: only those it implements and its e2e suite checks
 * (test/stac-*.e2e.test.ts; docs/stac.md says which are left for later and why).
 */
export const conformsTo: readonly string[] = [
  'https://api.stacspec.org/v1.0.0/core',
  'https://api.stacspec.org/v1.0.0/collections',
  'https://api.stacspec.org/v1.0.0/ogcapi-features',
  'https://api.stacspec.org/v1.0.0/item-search',
  'https://api.stacspec.org/v1.0.0-rc.2/children',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
];
