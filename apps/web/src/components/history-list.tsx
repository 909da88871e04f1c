import type { HistoryEntry } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { history } from '../api/endpoints.js';
import { AsOfView, type AsOfChoice } from './as-of-view.js';
import { ErrorMessage } from './error-message.js';

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** `{field: {before, after}}` of an update, as rows; anything else as its recorded fields. */
function ChangeTable(props: { readonly entry: HistoryEntry }) {
  const { entry } = props;
  const rows = Object.entries(entry.change);
  if (rows.length === 0) return null;
  const isUpdate = entry.type === 'PortalObjectUpdated';
  return (
    <table class="change">
      <thead>
        <tr>
          <th scope="col">Field</th>
          {isUpdate ? (
            <>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </>
          ) : (
            <th scope="col">Value</th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map(([field, value]) => {
          const pair = value as { before?: unknown; after?: unknown } | null;
          return (
            <tr key={field}>
              <th scope="row">{field}</th>
              {isUpdate ? (
                <>
                  <td data-testid="before">{show(pair?.before)}</td>
                  <td data-testid="after">{show(pair?.after)}</td>
                </>
              ) : (
                <td>{show(value)}</td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Every event of the object, oldest first, with who did it and what it changed (docs/history.md). */
export function HistoryList(props: { readonly id: string; readonly revision: number }) {
  const [entries, setEntries] = useState<readonly HistoryEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [asOf, setAsOf] = useState<AsOfChoice | null>(null);

  useEffect(() => {
    setEntries(null);
    history(props.id)
      .then((page) => {
        setEntries(page.items);
        setNext(page.next);
      })
      .catch(setError);
  }, [props.id, props.revision]);

  async function more() {
    if (next === null) return;
    try {
      const page = await history(props.id, next);
      setEntries([...(entries ?? []), ...page.items]);
      setNext(page.next);
    } catch (caught) {
      setError(caught);
    }
  }

  if (error) return <ErrorMessage error={error} />;
  if (!entries) return <p aria-busy="true">Loading the history…</p>;
  return (
    <section aria-label="History">
      <AsOfView id={props.id} choice={asOf} onChoose={setAsOf} />
      <ol class="history" data-testid="history">
        {entries.map((entry) => (
          <li key={entry.revision} data-testid="history-entry">
            <p class="history-head">
              <strong data-testid="event-type">{entry.type}</strong> · revision {entry.revision} ·{' '}
              <time dateTime={entry.occurredAt}>{new Date(entry.occurredAt).toLocaleString()}</time> · by{' '}
              <span data-testid="actor">{entry.actor.name ?? entry.actor.id ?? 'the service'}</span>
            </p>
            <ChangeTable entry={entry} />
            <button
              type="button"
              class="link"
              onClick={() => {
                setAsOf({ asOf: String(entry.revision), label: `revision ${entry.revision}` });
                window.scrollTo({ top: 0 });
              }}
            >
              View as of revision {entry.revision}
            </button>
          </li>
        ))}
      </ol>
      {next ? (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            void more();
          }}
        >
          Older events
        </button>
      ) : null}
    </section>
  );
}
