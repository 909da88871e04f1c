import { signUpBodySchema } from '@portal/contracts';
import { useState } from 'preact/hooks';
import { signUp } from '../api/endpoints.js';
import { FormMessage } from '../components/error-message.js';
import { Field } from '../components/field.js';
import { Link } from '../components/link.js';
import { errorsOf, noErrors, validate, type FormErrors } from '../lib/form-errors.js';
import { navigate } from '../lib/navigation.js';
import { APP_BASE } from '../lib/routes.js';
import { applySessionView } from '../session.js';

export function SignUpPage() {
  const [fields, setFields] = useState({ name: '', email: '', password: '' });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof fields) => (value: string) => {
    setFields({ ...fields, [name]: value });
  };

  async function submit(event: Event) {
    event.preventDefault();
    const checked = validate(signUpBodySchema, fields);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    try {
      await applySessionView(await signUp(checked.data));
      navigate(`${APP_BASE}/`);
    } catch (error) {
      setErrors(errorsOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="narrow">
      <h1>Create an account</h1>
      <p>You get an organization of your own; invite others to it later.</p>
      <form
        onSubmit={(event) => {
          void submit(event);
        }}
        noValidate
        data-testid="sign-up-form"
      >
        <Field
          label="Name"
          name="name"
          autocomplete="name"
          value={fields.name}
          onValue={set('name')}
          error={errors.fields['name']}
        />
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
          autocomplete="new-password"
          value={fields.password}
          onValue={set('password')}
          error={errors.fields['password']}
          hint="At least 8 characters."
        />
        <FormMessage errors={errors} />
        <button type="submit" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        Have an account? <Link href={`${APP_BASE}/sign-in`}>Sign in</Link>
      </p>
    </section>
  );
}
