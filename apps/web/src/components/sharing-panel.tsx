import {
  shareBodySchema,
  visibilitySchema,
  type HistoryEntry,
  type PrincipalType,
  type ShareRecord,
  type VisibilityValue,
} from '@portal/contracts';
import { useEffect, useId, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import { changeVisibility, history, listShares, share, unshare } from '../api/endpoints.js';
import { currentVisibility } from '../lib/current-visibility.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { ErrorMessage } from './error-message.js';
import { Field } from './field.js';

const VISIBILITIES: readonly { value: VisibilityValue; label: string }[] = [
  { value: 'private', label: 'Private — admins, owners and the creator' },
  { value: 'org', label: 'Organization — every member' },
  { value: 'public', label: 'Public — everyone' },
];

async function allHistory(id: string): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await history(id, cursor);
    entries.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  return entries;
}

/** What the panel knows once loaded; `null` while loading, `'hidden'` for a caller who may not manage. */
type Loaded = { readonly shares: readonly ShareRecord[]; readonly visibility: VisibilityValue } | 'hidden';

/**
 * Visibility and shares of an object, for those who may manage them (its organization's admins and
 * owners, its creator). Who may is the API's decision: the panel asks for the shares and stays away
 * when the answer is 403, so the rule lives in one place.
 */
export function SharingPanel(props: { readonly id: string; readonly revision: number }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [type, setType] = useState<PrincipalType>('user');
  const [principalId, setPrincipalId] = useState('');
  const [permission, setPermission] = useState<'viewer' | 'editor'>('viewer');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const [reads, setReads] = useState(0);
  const ids = useId();

  useEffect(() => {
    let live = true;
    Promise.all([listShares(props.id), allHistory(props.id)])
      .then(([list, entries]) => {
        if (live) setLoaded({ shares: list.shares, visibility: currentVisibility(entries) });
      })
      .catch((caught: unknown) => {
        if (!live) return;
        if (caught instanceof ApiError && caught.status === 403) setLoaded('hidden');
        else setError(caught);
      });
    return () => {
      live = false;
    };
  }, [props.id, props.revision, reads]);

  if (loaded === 'hidden') return null;
  if (loaded === null) return error ? <ErrorMessage error={error} /> : null;

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setReads((count) => count + 1);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  async function add(event: Event) {
    event.preventDefault();
    const checked = validate(shareBodySchema, {
      principal: { type, id: principalId.trim() },
      permission,
    });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await share(props.id, checked.data);
      setErrors(noErrors);
      setPrincipalId('');
      setReads((count) => count + 1);
    } catch (caught) {
      setErrors(errorsOf(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="sharing" aria-label="Sharing" data-testid="sharing">
      <h2>Visibility and sharing</h2>
      <div class="field">
        <label for={`${ids}-visibility`}>Visibility</label>
        <select
          id={`${ids}-visibility`}
          value={loaded.visibility}
          disabled={busy}
          onChange={(event) => {
            const chosen = visibilitySchema.safeParse(event.currentTarget.value);
            if (chosen.success) void act(() => changeVisibility(props.id, chosen.data));
          }}
        >
          {VISIBILITIES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <ErrorMessage error={error} />

      {loaded.shares.length === 0 ? (
        <p class="empty" data-testid="no-shares">
          Not shared with anyone.
        </p>
      ) : (
        <div class="table-scroll">
          <table data-testid="shares">
            <thead>
              <tr>
                <th scope="col">Shared with</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span class="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.shares.map((record) => (
                <tr key={`${record.principal.type}:${record.principal.id}`} data-testid="share">
                  <td>
                    {record.principal.type} <code data-testid="share-principal">{record.principal.id}</code>
                  </td>
                  <td data-testid="share-permission">{record.permission}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      aria-label={`Stop sharing with ${record.principal.type} ${record.principal.id}`}
                      onClick={() => {
                        void act(() => unshare(props.id, record.principal.type, record.principal.id));
                      }}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form
        class="inline-form"
        data-testid="share-form"
        noValidate
        onSubmit={(event) => {
          void add(event);
        }}
      >
        <div class="field">
          <label for={`${ids}-type`}>Share with</label>
          <select
            id={`${ids}-type`}
            value={type}
            onChange={(event) => {
              setType(event.currentTarget.value === 'organization' ? 'organization' : 'user');
            }}
          >
            <option value="user">a user</option>
            <option value="organization">an organization</option>
          </select>
        </div>
        <Field
          label={type === 'user' ? 'User id' : 'Organization id'}
          name="principal.id"
          value={principalId}
          onValue={setPrincipalId}
          error={errors.fields['principal.id']}
          hint="The id is on the account page of the user (or their organization)."
        />
        <div class="field">
          <label for={`${ids}-permission`}>Role</label>
          <select
            id={`${ids}-permission`}
            value={permission}
            onChange={(event) => {
              setPermission(event.currentTarget.value === 'editor' ? 'editor' : 'viewer');
            }}
          >
            <option value="viewer">viewer</option>
            <option value="editor">editor</option>
          </select>
        </div>
        <button type="submit" disabled={busy}>
          Share
        </button>
      </form>
      {errors.form ? (
        <p class="error" role="alert" data-testid="share-error">
          {errors.form}
        </p>
      ) : null}
    </section>
  );
}
