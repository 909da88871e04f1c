import type { PortalItemRecord } from '@portal/contracts';
import { useEffect, useId, useState } from 'preact/hooks';
import { portalItemAsOf } from '../api/endpoints.js';
import { asOfFromLocalTime, localTimeOf } from '../lib/as-of.js';
import { ErrorMessage } from './error-message.js';
import { ObjectDetails } from './object-details.js';

/** A point of the past asked for: a time (RFC 3339) or a revision, with how to say it to the user. */
export interface AsOfChoice {
  readonly asOf: string;
  readonly label: string;
}

/**
 * The object as it was at a chosen time (or a revision picked from the history): the API folds the
 * object's own events up to then (`GET …?asOf=`, docs/history.md) and the answer is shown read-only
 * with the same details view as today's record.
 */
export function AsOfView(props: {
  readonly id: string;
  readonly choice: AsOfChoice | null;
  readonly onChoose: (choice: AsOfChoice | null) => void;
}) {
  const [local, setLocal] = useState(() => localTimeOf(new Date()));
  const [invalid, setInvalid] = useState(false);
  const [record, setRecord] = useState<PortalItemRecord | null>(null);
  const [error, setError] = useState<unknown>(null);
  const inputId = useId();
  const { choice } = props;

  useEffect(() => {
    setRecord(null);
    setError(null);
    if (choice === null) return;
    let live = true;
    portalItemAsOf(props.id, choice.asOf)
      .then((past) => {
        if (live) setRecord(past);
      })
      .catch((caught: unknown) => {
        if (live) setError(caught);
      });
    return () => {
      live = false;
    };
  }, [props.id, choice]);

  return (
    <section class="as-of" aria-label="The object as of a time" data-testid="as-of">
      <form
        class="inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const asOf = asOfFromLocalTime(local);
          setInvalid(asOf === null);
          if (asOf !== null) props.onChoose({ asOf, label: new Date(asOf).toLocaleString() });
        }}
      >
        <div class={invalid ? 'field invalid' : 'field'}>
          <label for={inputId}>View as of</label>
          <input
            id={inputId}
            type="datetime-local"
            step={1}
            value={local}
            aria-invalid={invalid ? true : undefined}
            onInput={(event) => {
              setLocal(event.currentTarget.value);
            }}
          />
          {invalid ? <span class="field-error">must be a date and a time</span> : null}
        </div>
        <button type="submit">Show</button>
        {choice ? (
          <button
            type="button"
            class="secondary"
            onClick={() => {
              props.onChoose(null);
            }}
          >
            Close
          </button>
        ) : null}
      </form>
      {choice ? (
        <div class="as-of-result" data-testid="as-of-result">
          <h2 data-testid="as-of-heading">As of {choice.label}</h2>
          <ErrorMessage error={error} />
          {record ? (
            <>
              <p class="meta" data-testid="as-of-title">
                {record.title}
              </p>
              <ObjectDetails record={record} canEdit={false} onChanged={noop} onDeleted={noop} />
            </>
          ) : error ? null : (
            <p aria-busy="true">Loading…</p>
          )}
        </div>
      ) : null}
    </section>
  );
}

function noop(): void {
  // A past state is read-only: there is nothing to save or delete.
}
