import type { BrowserNode, PortalItemRecord } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { portalItem } from '../api/endpoints.js';
import { ErrorMessage } from './error-message.js';
import { HistoryList } from './history-list.js';
import { ObjectDetails } from './object-details.js';

/** The Details or History tab of a node: its portal item record, read fresh whenever `version` moves. */
export function ObjectPanel(props: {
  readonly node: BrowserNode;
  readonly tab: 'details' | 'history';
  readonly version: number;
  readonly canEdit: boolean;
  readonly onChanged: () => void;
  readonly onDeleted: () => void;
}) {
  const [record, setRecord] = useState<PortalItemRecord | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    setError(null);
    portalItem(props.node.id)
      .then((response) => {
        setRecord(response.body);
      })
      .catch(setError);
  }, [props.node.id, props.version]);

  if (error) return <ErrorMessage error={error} />;
  if (!record) return <p aria-busy="true">Loading…</p>;
  if (props.tab === 'history') return <HistoryList id={record.id} revision={record.revision} />;
  return (
    <ObjectDetails
      record={record}
      canEdit={props.canEdit}
      onChanged={props.onChanged}
      onDeleted={props.onDeleted}
    />
  );
}
