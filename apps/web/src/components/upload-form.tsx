import { createItemBodySchema } from '@portal/contracts';
import { useState } from 'preact/hooks';
import { createItem } from '../api/endpoints.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { startUpload } from '../upload/manager.js';
import { choosePartSize } from '../upload/plan.js';
import { FormMessage } from './error-message.js';
import { DropZone } from './drop-zone.js';
import { Field } from './field.js';

/** The file's own media type when the browser knows one the API takes, else plain bytes. */
function contentTypeOf(file: File): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : 'application/octet-stream';
}

/**
 * A new item with its file: the item is created with the file's size, name and type (so the API
 * plans every part), then the parts go straight to the object store while the page moves on.
 */
export function UploadForm(props: {
  readonly parentId: string;
  readonly onStarted: (itemId: string) => void;
  readonly onCancel: () => void;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    if (!file) {
      setErrors({ fields: { file: 'choose or drop a file' }, form: null });
      return;
    }
    const partSize = choosePartSize(file.size);
    const checked = validate(createItemBodySchema, {
      title: title === '' ? file.name : title,
      ...(description === '' ? {} : { description }),
      parentId: props.parentId,
      links: [],
      size: file.size,
      fileName: file.name,
      contentType: contentTypeOf(file),
      ...(partSize === undefined ? {} : { partSize }),
    });
    if (!checked.ok) {
      const fields = { ...checked.errors.fields };
      // The file's own fields are about the file: show them at the picker.
      for (const name of ['size', 'fileName', 'contentType']) {
        if (fields[name]) fields['file'] = `${name}: ${fields[name]}`;
      }
      setErrors({ ...checked.errors, fields });
      return;
    }
    setBusy(true);
    try {
      const descriptor = await createItem(checked.data);
      startUpload(descriptor, file);
      props.onStarted(descriptor.portalItemId);
    } catch (error) {
      setErrors(errorsOf(error));
      setBusy(false);
    }
  }

  return (
    <form
      class="object-form"
      noValidate
      data-testid="upload-form"
      onSubmit={(event) => {
        void submit(event);
      }}
    >
      <h2>New item</h2>
      <DropZone
        label="File"
        file={file}
        onFile={(picked) => {
          setFile(picked);
        }}
        error={errors.fields['file']}
      />
      <Field
        label="Title"
        name="title"
        value={title}
        onValue={setTitle}
        hint="The file's name when left empty."
        error={errors.fields['title']}
      />
      <Field
        label="Description"
        name="description"
        multiline
        value={description}
        onValue={setDescription}
        error={errors.fields['description']}
      />
      <FormMessage errors={errors} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Upload
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
