import {
  createCatalogBodySchema,
  createCollectionBodySchema,
  updatePortalItemBodySchema,
  type PortalItemRecord,
} from '@portal/contracts';
import { useState } from 'preact/hooks';
import { createCatalog, createCollection, updatePortalItem } from '../api/endpoints.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { FormMessage } from './error-message.js';
import { Field } from './field.js';
import { LinksEditor, linksOf, type LinkDraft } from './links-editor.js';

export type ContainerKind = 'catalog' | 'collection';

interface Draft {
  title: string;
  description: string;
  visibility: 'private' | 'org' | 'public';
  license: string;
  keywords: string;
  links: LinkDraft[];
}

/** Comma-separated keywords as the list the contract takes; none when the field is empty. */
function keywordsOf(text: string): string[] {
  return text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword !== '');
}

/**
 * Create a catalog or a collection under `parentId` (none: the root level). The body is checked with
 * the contract's create schema before it is sent, so every message appears at its field; what only
 * the API can tell (a parent deleted meanwhile, a missing right) comes back in its own words.
 */
interface DraftProps {
  readonly draft: Draft;
  readonly errors: FormErrors;
  readonly onDraft: (draft: Draft) => void;
}

function setter(props: DraftProps) {
  return (name: 'title' | 'description' | 'license' | 'keywords') => (value: string) => {
    props.onDraft({ ...props.draft, [name]: value });
  };
}

/** Title and description: the first fields of both forms. */
function TextFields(props: DraftProps) {
  const { draft, errors } = props;
  const set = setter(props);
  return (
    <>
      <Field
        label="Title"
        name="title"
        value={draft.title}
        onValue={set('title')}
        error={errors.fields['title']}
      />
      <Field
        label="Description"
        name="description"
        multiline
        value={draft.description}
        onValue={set('description')}
        error={errors.fields['description']}
      />
    </>
  );
}

/** A collection's license and keywords (`collection`), then the links: the last fields of both forms. */
function DetailFields(props: DraftProps & { readonly collection: boolean }) {
  const { draft, errors } = props;
  const set = setter(props);
  return (
    <>
      {props.collection ? (
        <>
          <Field
            label="License"
            name="license"
            value={draft.license}
            onValue={set('license')}
            error={errors.fields['license']}
          />
          <Field
            label="Keywords"
            name="keywords"
            value={draft.keywords}
            onValue={set('keywords')}
            hint="Comma-separated."
            error={Object.entries(errors.fields).find(([path]) => path.startsWith('keywords'))?.[1]}
          />
        </>
      ) : null}
      <LinksEditor
        links={draft.links}
        onChange={(links) => {
          props.onDraft({ ...draft, links });
        }}
        errors={errors.fields}
      />
    </>
  );
}

export function CreateContainerForm(props: {
  readonly kind: ContainerKind;
  readonly parentId: string | null;
  readonly onCreated: (id: string) => void;
  readonly onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    title: '',
    description: '',
    visibility: 'org',
    license: '',
    keywords: '',
    links: [],
  });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    const common = {
      title: draft.title,
      description: draft.description,
      links: linksOf(draft.links),
      visibility: draft.visibility,
      ...(props.parentId === null ? {} : { parentId: props.parentId }),
    };
    setBusy(true);
    try {
      if (props.kind === 'catalog') {
        const checked = validate(createCatalogBodySchema, common);
        if (!checked.ok) {
          setErrors(checked.errors);
          return;
        }
        props.onCreated((await createCatalog(checked.data)).portalItemId);
      } else {
        const keywords = keywordsOf(draft.keywords);
        const checked = validate(createCollectionBodySchema, {
          ...common,
          ...(draft.license.trim() === '' ? {} : { license: draft.license }),
          ...(keywords.length === 0 ? {} : { keywords }),
        });
        if (!checked.ok) {
          setErrors(checked.errors);
          return;
        }
        props.onCreated((await createCollection(checked.data)).portalItemId);
      }
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="object-form"
      noValidate
      data-testid="create-form"
      onSubmit={(event) => {
        void submit(event);
      }}
    >
      <h2>New {props.kind}</h2>
      <TextFields draft={draft} errors={errors} onDraft={setDraft} />
      <div class="field">
        <label for="visibility">Visibility</label>
        <select
          id="visibility"
          name="visibility"
          value={draft.visibility}
          onChange={(event) => {
            setDraft({ ...draft, visibility: event.currentTarget.value as Draft['visibility'] });
          }}
        >
          <option value="org">Organization</option>
          <option value="private">Private</option>
          <option value="public">Public</option>
        </select>
      </div>
      <DetailFields
        draft={draft}
        errors={errors}
        onDraft={setDraft}
        collection={props.kind === 'collection'}
      />
      <FormMessage errors={errors} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Create {props.kind}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Edit an object's title, description, links (and a collection's license and keywords). Sent with
 * `If-Match` of the revision shown: a change someone made meanwhile answers 412, and its message says so.
 */
export function EditObjectForm(props: {
  readonly record: PortalItemRecord;
  readonly onSaved: () => void;
  readonly onCancel: () => void;
}) {
  const { record } = props;
  const [draft, setDraft] = useState<Draft>({
    title: record.title,
    description: record.description ?? '',
    visibility: 'org',
    license: record.license ?? '',
    keywords: (record.keywords ?? []).join(', '),
    links: record.links.map((link) => ({
      title: link.title ?? '',
      href: link.href ?? '',
      rel: link.rel,
      type: link.type ?? '',
      targetType: link.targetType ?? '',
    })),
  });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  // The revision the draft started from: a live refresh of the record must not move it, or a change
  // made meanwhile would be overwritten instead of refused.
  const [baseRevision] = useState(record.revision);
  const isCollection = record.kind === 'collection';

  async function submit(event: Event) {
    event.preventDefault();
    const keywords = keywordsOf(draft.keywords);
    const checked = validate(updatePortalItemBodySchema, {
      title: draft.title,
      // An item's description may be absent: an empty field leaves it as it is.
      ...(draft.description === '' && record.kind === 'item' ? {} : { description: draft.description }),
      links: linksOf(draft.links),
      ...(isCollection && draft.license.trim() !== '' ? { license: draft.license } : {}),
      ...(isCollection ? { keywords } : {}),
    });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await updatePortalItem(record.id, checked.data, baseRevision);
      props.onSaved();
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="object-form"
      noValidate
      data-testid="edit-form"
      onSubmit={(event) => {
        void submit(event);
      }}
    >
      <h2>Edit {record.kind}</h2>
      <TextFields draft={draft} errors={errors} onDraft={setDraft} />
      <DetailFields draft={draft} errors={errors} onDraft={setDraft} collection={isCollection} />
      <FormMessage errors={errors} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
