import type { BrowserNode } from '@portal/contracts';
import { nodeHref } from '../lib/routes.js';
import { Link } from './link.js';

const KIND_LABEL = { catalog: 'Catalog', collection: 'Collection', item: 'Item' } as const;

export function KindBadge(props: { readonly kind: BrowserNode['kind'] }) {
  return <span class={`badge kind-${props.kind}`}>{KIND_LABEL[props.kind]}</span>;
}

export function StatusBadge(props: { readonly status: string }) {
  return (
    <span class={`badge status-${props.status}`} data-testid="status">
      {props.status}
    </span>
  );
}

/** One child in the list: a link to its page, with what a glance needs. */
export function NodeRow(props: { readonly node: BrowserNode }) {
  const { node } = props;
  return (
    <Link href={nodeHref(node)} class="node-row" testId="node-row">
      <KindBadge kind={node.kind} />
      <span class="title">{node.title}</span>
      {node.kind === 'item' ? (
        <StatusBadge status={node.status} />
      ) : (
        <span class="count" title="children">
          {node.childCount.toLocaleString()}
        </span>
      )}
    </Link>
  );
}
