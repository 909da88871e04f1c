import { STAC_VERSION, type StacLink } from '@portal/contracts';
import type { PortalObjectRow } from '@portal/read-model-portal-objects';
import { conformsTo } from './conformance.js';
import { childLink } from './container-json.js';
import {
  GEOJSON_TYPE,
  JSON_TYPE,
  OPENAPI_TYPE,
  QUERYABLES_REL,
  SCHEMA_JSON_TYPE,
  SORTABLES_REL,
  type StacUrls,
} from './stac-links.js';

export const LANDING_PAGE_ID = 'portal-catalog-service';

/**
 * `GET /api/v1/stac`: the root Catalog. Its `child` links are the root-level catalogs and collections
 * the caller may read (the first page of `/children`); `search` is offered both ways, as STAC asks.
 */
export function landingPage(
  urls: StacUrls,
  rootChildren: readonly PortalObjectRow[],
  continuations: readonly StacLink[],
) {
  const links: StacLink[] = [
    { rel: 'self', href: urls.root, type: JSON_TYPE },
    { rel: 'root', href: urls.root, type: JSON_TYPE },
    { rel: 'conformance', href: urls.conformance, type: JSON_TYPE },
    { rel: 'data', href: urls.collections, type: JSON_TYPE },
    { rel: 'children', href: urls.children, type: JSON_TYPE },
    { rel: 'search', href: urls.search, type: GEOJSON_TYPE, method: 'GET' },
    { rel: 'search', href: urls.search, type: GEOJSON_TYPE, method: 'POST' },
    { rel: QUERYABLES_REL, href: urls.queryables, type: SCHEMA_JSON_TYPE },
    { rel: SORTABLES_REL, href: urls.sortables, type: SCHEMA_JSON_TYPE },
    { rel: 'aggregate', href: urls.aggregate, type: JSON_TYPE, method: 'GET' },
    { rel: 'aggregate', href: urls.aggregate, type: JSON_TYPE, method: 'POST' },
    { rel: 'aggregations', href: urls.aggregations, type: JSON_TYPE },
    { rel: 'service-desc', href: urls.serviceDesc, type: OPENAPI_TYPE },
    { rel: 'service-doc', href: urls.serviceDoc, type: 'text/html' },
    ...rootChildren.map((row) => childLink(row, urls)),
    ...continuations,
  ];
  return {
    type: 'Catalog' as const,
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: LANDING_PAGE_ID,
    title: 'Portal Catalog Service',
    description:
      'The portal as a STAC API: its collections, catalogs and items, as the caller may read them.',
    conformsTo: [...conformsTo],
    links,
  };
}
