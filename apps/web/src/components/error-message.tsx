import { messageOf } from '../api/client.js';
import type { FormErrors } from '../lib/form-errors.js';

/** An API refusal in the API's own words; `role="alert"` so a screen reader says it at once. */
export function ErrorMessage(props: { readonly error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert" data-testid="error">
      {messageOf(props.error)}
    </p>
  );
}

/** A form's refusal that belongs to no field, in the same place and words as `ErrorMessage`. */
export function FormMessage(props: { readonly errors: FormErrors }) {
  return props.errors.form ? (
    <p class="error" role="alert" data-testid="error">
      {props.errors.form}
    </p>
  ) : null;
}
