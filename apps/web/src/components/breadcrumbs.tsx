import type { Breadcrumb } from '@portal/contracts';
import { APP_BASE, browseHref } from '../lib/routes.js';
import { Link } from './link.js';

/** Root level › … › the node. A crumb below a hidden ancestor has no path, so it is not a link. */
export function Breadcrumbs(props: { readonly crumbs: readonly Breadcrumb[] }) {
  const last = props.crumbs.length - 1;
  return (
    <nav aria-label="Breadcrumbs" class="breadcrumbs" data-testid="breadcrumbs">
      <ol>
        <li>
          <Link href={`${APP_BASE}/`}>Root</Link>
        </li>
        {props.crumbs.map((crumb, index) => (
          <li key={crumb.id}>
            {index === last || crumb.path === null ? (
              <span aria-current={index === last ? 'page' : undefined}>{crumb.title}</span>
            ) : (
              <Link href={browseHref(crumb.path)}>{crumb.title}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
