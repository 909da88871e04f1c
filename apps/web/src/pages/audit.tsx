import type { AuditEvent } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { auditFeed } from '../api/endpoints.js';
import { ApiError, queryString } from '../api/client.js';
import { ErrorMessage } from '../components/error-message.js';
import type { SessionState } from '../session.js';

const ADMIN_ROLES: ReadonlySet<string> = new Set(['admin', 'owner']);

interface Filters {
  type: string;
  from: string;
  to: string;
}

/** `datetime-local` input (local time) as the RFC 3339 instant the API asks for; empty: no bound. */
function instantOf(local: string): string | undefined {
  if (local === '') return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

function queryOf(filters: Filters): Record<string, string | undefined> {
  return { type: filters.type.trim() || undefined, from: instantOf(filters.from), to: instantOf(filters.to) };
}

/**
 * The organization's audit feed, oldest first, for its admins and owners: filters by event type and
 * time, pages, and the same filters exported as CSV (the API's `text/csv` answer).
 */
export function AuditPage(props: { readonly session: SessionState }) {
  const role = props.session.view?.activeOrganization?.role ?? null;
  const allowed = role !== null && ADMIN_ROLES.has(role);
  const organizationId = props.session.view?.activeOrganization?.id ?? null;
  const [filters, setFilters] = useState<Filters>({ type: '', from: '', to: '' });
  const [applied, setApplied] = useState<Filters>(filters);
  const [events, setEvents] = useState<readonly AuditEvent[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!allowed) return;
    setError(null);
    setEvents(null);
    auditFeed(queryOf(applied))
      .then((page) => {
        setEvents(page.items);
        setNext(page.next);
      })
      .catch(setError);
  }, [allowed, applied, organizationId]);

  if (!allowed) {
    return (
      <section>
        <h1>Audit feed</h1>
        <p>
          The audit feed is for the organization's admins and owners
          {role ? `; your role here is ${role}` : ''}.
        </p>
      </section>
    );
  }

  async function more() {
    if (next === null) return;
    try {
      const page = await auditFeed({ ...queryOf(applied), cursor: next });
      setEvents([...(events ?? []), ...page.items]);
      setNext(page.next);
    } catch (caught) {
      setError(caught);
    }
  }

  async function exportCsv() {
    setError(null);
    try {
      const response = await fetch(`/api/v1/audit/events${queryString(queryOf(applied))}`, {
        headers: { accept: 'text/csv' },
        credentials: 'same-origin',
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { message?: string } | null;
        throw new ApiError(
          response.status,
          body?.message ?? `${response.status} ${response.statusText}`,
          undefined,
          [],
        );
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-events-${organizationId ?? 'organization'}.csv`;
      link.click();
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 10_000);
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <section class="audit" data-testid="audit">
      <h1>Audit feed</h1>
      <form
        class="controls"
        onSubmit={(event) => {
          event.preventDefault();
          setApplied(filters);
        }}
      >
        <div class="field">
          <label for="audit-type">Event types</label>
          <input
            id="audit-type"
            value={filters.type}
            placeholder="PortalObjectUpdated,ObjectShared"
            onInput={(event) => {
              setFilters({ ...filters, type: event.currentTarget.value });
            }}
          />
        </div>
        <div class="field">
          <label for="audit-from">From</label>
          <input
            id="audit-from"
            type="datetime-local"
            value={filters.from}
            onInput={(event) => {
              setFilters({ ...filters, from: event.currentTarget.value });
            }}
          />
        </div>
        <div class="field">
          <label for="audit-to">Before</label>
          <input
            id="audit-to"
            type="datetime-local"
            value={filters.to}
            onInput={(event) => {
              setFilters({ ...filters, to: event.currentTarget.value });
            }}
          />
        </div>
        <button type="submit">Filter</button>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            void exportCsv();
          }}
        >
          Export CSV
        </button>
      </form>
      <ErrorMessage error={error} />
      {events === null ? (
        error ? null : (
          <p aria-busy="true">Loading…</p>
        )
      ) : events.length === 0 ? (
        <p class="empty">No events match.</p>
      ) : (
        <div class="table-scroll">
          <table data-testid="audit-events">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Who</th>
                <th scope="col">Object</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.position} data-testid="audit-event">
                  <td>
                    <time dateTime={event.occurredAt}>{new Date(event.occurredAt).toLocaleString()}</time>
                  </td>
                  <td data-testid="audit-type">{event.type}</td>
                  <td>{event.actor.name ?? event.actor.id ?? 'the service'}</td>
                  <td>
                    {event.object
                      ? `${event.object.kind ?? 'object'} ${event.object.id.slice(0, 8)}`
                      : 'organization'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
