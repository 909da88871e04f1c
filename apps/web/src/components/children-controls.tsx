import { nodeSorts, portalItemStatuses, portalKinds, type NodeSort, type SortOrder } from '@portal/contracts';
import { useId } from 'preact/hooks';
import type { ChildrenQuery } from '../api/endpoints.js';

const SORT_LABEL: Record<NodeSort, string> = {
  kind: 'Kind, then title',
  title: 'Title',
  createdAt: 'Created',
  updatedAt: 'Updated',
};

function toggled<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((existing) => existing !== value) : [...values, value];
}

/** Sort and kind/status filters of a children list; they live in the URL, so a link keeps them. */
export function ChildrenControls(props: {
  readonly query: ChildrenQuery;
  readonly onChange: (query: ChildrenQuery) => void;
}) {
  const { query, onChange } = props;
  const id = useId();
  return (
    <form
      class="controls"
      onSubmit={(event) => {
        event.preventDefault();
      }}
      aria-label="List controls"
    >
      <label for={`${id}-sort`}>Sort</label>
      <select
        id={`${id}-sort`}
        name="sort"
        value={query.sort}
        onChange={(event) => {
          onChange({ ...query, sort: event.currentTarget.value as NodeSort });
        }}
      >
        {nodeSorts.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABEL[sort]}
          </option>
        ))}
      </select>
      <label for={`${id}-order`}>Order</label>
      <select
        id={`${id}-order`}
        name="order"
        value={query.order}
        onChange={(event) => {
          onChange({ ...query, order: event.currentTarget.value as SortOrder });
        }}
      >
        <option value="asc">Ascending</option>
        <option value="desc">Descending</option>
      </select>
      <fieldset>
        <legend>Kind</legend>
        {portalKinds.map((kind) => (
          <label key={kind} class="check">
            <input
              type="checkbox"
              name="kind"
              value={kind}
              checked={query.kind.includes(kind)}
              onChange={() => {
                onChange({ ...query, kind: toggled(query.kind, kind) });
              }}
            />
            {kind}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Status</legend>
        {portalItemStatuses.map((status) => (
          <label key={status} class="check">
            <input
              type="checkbox"
              name="status"
              value={status}
              checked={query.status.includes(status)}
              onChange={() => {
                onChange({ ...query, status: toggled(query.status, status) });
              }}
            />
            {status}
          </label>
        ))}
      </fieldset>
    </form>
  );
}
