import { messageOf } from '../api/client.js';

/** An API refusal in the API's own words; `role="alert"` so a screen reader says it at once. */
export function ErrorMessage(props: { readonly error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <p class="error" role="alert" data-testid="error">
      {messageOf(props.error)}
    </p>
  );
}
