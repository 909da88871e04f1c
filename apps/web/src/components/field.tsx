import { useId } from 'preact/hooks';

/**
 * A labelled input with its message below, tied by `aria-describedby` and `aria-invalid`, so the
 * message at the field is read out with it.
 */
export function Field(props: {
  readonly label: string;
  readonly name: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly error?: string | undefined;
  readonly multiline?: boolean;
  readonly hint?: string;
  readonly type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'datetime-local';
  readonly autocomplete?: string;
  readonly placeholder?: string;
}) {
  const id = `field-${props.name}-${useId()}`;
  const messageId = `${id}-message`;
  const shared = {
    id,
    name: props.name,
    value: props.value,
    placeholder: props.placeholder,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': props.error || props.hint ? messageId : undefined,
    onInput: (event: Event) => {
      props.onValue((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value);
    },
  };
  return (
    <div class={props.error ? 'field invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...shared} rows={3} />
      ) : (
        // Preact's types tie `role` to each `type`; a text-like input takes every one of these.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it
        <input {...shared} type={(props.type ?? 'text') as 'text'} autocomplete={props.autocomplete} />
      )}
      {props.error ? (
        <span class="field-error" id={messageId} data-testid={`error-${props.name}`}>
          {props.error}
        </span>
      ) : props.hint ? (
        <span class="hint" id={messageId}>
          {props.hint}
        </span>
      ) : null}
    </div>
  );
}
