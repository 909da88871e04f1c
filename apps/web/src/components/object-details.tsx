import type { PortalItemRecord } from '@portal/contracts';
import { useState } from 'preact/hooks';
import { deletePortalItem } from '../api/endpoints.js';
import { ErrorMessage } from './error-message.js';
import { FootprintMap } from './footprint-map.js';
import { EditObjectForm } from './object-form.js';

function formatBytes(bytes: unknown): string {
  if (typeof bytes !== 'number') return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit] ?? 'B'}`;
}

function Row(props: {
  readonly label: string;
  readonly value: string | null | undefined;
  readonly testId?: string;
}) {
  if (props.value === null || props.value === undefined || props.value === '') return null;
  return (
    <>
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.value}</dd>
    </>
  );
}

/**
 * An object's record: its metadata, links, linked objects and assets (each a download through the
 * API's redirect to a short-lived presigned URL), with edit and delete for those who may.
 */
export function ObjectDetails(props: {
  readonly record: PortalItemRecord;
  readonly canEdit: boolean;
  readonly onChanged: () => void;
  readonly onDeleted: () => void;
}) {
  const { record } = props;
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (editing) {
    return (
      <EditObjectForm
        record={record}
        onCancel={() => {
          setEditing(false);
        }}
        onSaved={() => {
          setEditing(false);
          props.onChanged();
        }}
      />
    );
  }

  async function remove() {
    const recursive = record.kind !== 'item';
    const what = recursive ? `${record.title} and everything below it` : record.title;
    if (!window.confirm(`Delete ${what}?`)) return;
    try {
      await deletePortalItem(record.id, recursive);
      props.onDeleted();
    } catch (caught) {
      setError(caught);
    }
  }

  const extent = record.extent;
  return (
    <section class="details" aria-label="Details" data-testid="details">
      {record.description ? <p data-testid="description">{record.description}</p> : null}
      <dl>
        <Row label="Kind" value={record.kind} />
        <Row label="Status" value={record.status} testId="details-status" />
        <Row label="Why" value={record.statusMessage ?? null} />
        <Row label="Slug" value={record.slug} />
        <Row label="STAC id" value={record.stacId} testId="stac-id" />
        <Row label="Revision" value={String(record.revision)} testId="revision" />
        <Row label="Created" value={new Date(record.createdAt).toLocaleString()} />
        <Row label="Updated" value={new Date(record.updatedAt).toLocaleString()} />
        <Row label="Bounding box" value={record.bbox ? record.bbox.join(', ') : null} />
        <Row label="Tags" value={record.tags.join(', ')} />
        <Row label="License" value={record.license} testId="license" />
        <Row label="Keywords" value={record.keywords?.join(', ')} testId="keywords" />
        <Row
          label="Spatial extent"
          value={extent ? extent.spatial.bbox.map((box) => box.join(', ')).join(' · ') : null}
        />
        <Row
          label="Temporal extent"
          value={
            extent
              ? extent.temporal.interval.map((pair) => pair.map((end) => end ?? '..').join(' – ')).join(' · ')
              : null
          }
        />
      </dl>
      <FootprintMap record={record} />

      <h2>Links</h2>
      {record.links.length === 0 ? (
        <p class="empty">No links.</p>
      ) : (
        <div class="table-scroll">
          <table data-testid="links">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Relation</th>
                <th scope="col">Type</th>
              </tr>
            </thead>
            <tbody>
              {record.links.map((link, index) => (
                <tr key={index}>
                  <td>
                    {link.href === undefined ? (
                      link.title
                    ) : (
                      <a href={link.href} rel="noopener noreferrer">
                        {link.title ?? link.href}
                      </a>
                    )}
                  </td>
                  <td>{link.rel}</td>
                  <td>{link.type}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {record.linksPortalItems.length > 0 ? (
        <p>Links to {record.linksPortalItems.length} object(s) of this portal.</p>
      ) : null}

      {record.kind === 'item' ? (
        <>
          <h2>Assets</h2>
          {record.assets.length === 0 ? (
            <p class="empty">No file yet.</p>
          ) : (
            <ul class="assets" data-testid="assets">
              {record.assets.map((asset) => (
                <li key={asset.id}>
                  {asset.source === 'href' ? (
                    // Registered by href: it lives elsewhere, so it opens there (no size is known).
                    <a href={asset.href} target="_blank" rel="noopener noreferrer" data-testid="asset-link">
                      Open {asset.key}
                    </a>
                  ) : (
                    <a href={asset.href} download data-testid="download">
                      Download {asset.key.split('/').at(-1)}
                    </a>
                  )}{' '}
                  {typeof asset['size'] === 'number' ? formatBytes(asset['size']) : null}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}

      <ErrorMessage error={error} />
      {props.canEdit ? (
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              setEditing(true);
            }}
          >
            Edit
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              void remove();
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
    </section>
  );
}
