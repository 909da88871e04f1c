import type { BrowserNode, PortalItemRecord } from '@portal/contracts';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { portalItem } from '../api/endpoints.js';
import { ErrorMessage } from './error-message.js';
import { HistoryList } from './history-list.js';
import { ObjectDetails } from './object-details.js';
import { SharingPanel } from './sharing-panel.js';
import { UploadPanel } from './upload-panel.js';

/** The Details or History tab of a node: its portal item record, read fresh whenever `version` moves. */
export function ObjectPanel(props: {
  readonly node: BrowserNode;
  readonly tab: 'details' | 'history';
  readonly version: number;
  readonly canEdit: boolean;
  readonly onChanged: () => void;
  readonly onDeleted: () => void;
  /** The record changed without an edit here (an upload's verdict): the page's node may show more. */
  readonly onRefreshed: () => void;
}) {
  const [record, setRecord] = useState<PortalItemRecord | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reads, setReads] = useState(0);
  const { onRefreshed } = props;
  const reread = useCallback(() => {
    setReads((count) => count + 1);
    onRefreshed();
  }, [onRefreshed]);

  useEffect(() => {
    setError(null);
    portalItem(props.node.id)
      .then((response) => {
        setRecord(response.body);
      })
      .catch(setError);
  }, [props.node.id, props.version, reads]);

  if (error) return <ErrorMessage error={error} />;
  if (!record) return <p aria-busy="true">Loading…</p>;
  if (props.tab === 'history') return <HistoryList id={record.id} revision={record.revision} />;
  return (
    <>
      {record.kind === 'item' ? <UploadPanel record={record} onSettled={reread} /> : null}
      <ObjectDetails
        record={record}
        canEdit={props.canEdit}
        onChanged={props.onChanged}
        onDeleted={props.onDeleted}
      />
      <SharingPanel id={record.id} revision={record.revision} />
    </>
  );
}
