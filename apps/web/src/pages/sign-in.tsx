import { signInBodySchema } from '@portal/contracts';
import { useState } from 'preact/hooks';
import { signIn } from '../api/endpoints.js';
import { FormMessage } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { Link } from '../components/link.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { navigate } from '../lib/navigation.js';
import { APP_BASE } from '../lib/routes.js';
import { applySessionView } from '../session.js';

export function SignInPage(props: { readonly next: string | null }) {
  const [fields, setFields] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof fields) => (value: string) => {
    setFields({ ...fields, [name]: value });
  };

  async function submit(event: Event) {
    event.preventDefault();
    const checked = validate(signInBodySchema, fields);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await applySessionView(await signIn(checked.data));
      navigate(props.next ?? `${APP_BASE}/`);
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="narrow">
      <h1>Sign in</h1>
      <form
        onSubmit={(event) => {
          void submit(event);
        }}
        noValidate
        data-testid="sign-in-form"
      >
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="email"
          value={fields.email}
          onValue={set('email')}
          error={errors.fields['email']}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="current-password"
          value={fields.password}
          onValue={set('password')}
          error={errors.fields['password']}
        />
        <FormMessage errors={errors} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        New here? <Link href={`${APP_BASE}/sign-up`}>Create an account</Link>
      </p>
    </section>
  );
}
