import { checkSearchBoxText } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { boxParam, type Box } from '../map/bbox.js';
import { Field } from './field.js';

/**
 * A box typed in (west, south, east, north), for keyboards and exact numbers: checked by the rule the
 * API reads `bbox` with (`checkSearchBoxText`), so a refusal is shown at the field in the API's words
 * before anything is asked for.
 */
export function BoxForm(props: {
  readonly box: Box | null;
  readonly onChoose: (box: Box) => void;
  readonly submitLabel: string;
  readonly testId: string;
}) {
  const [typed, setTyped] = useState(props.box ? boxParam(props.box) : '');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const current = props.box ? boxParam(props.box) : '';

  useEffect(() => {
    setTyped(current);
    setProblem(undefined);
  }, [current]);

  return (
    <form
      class="inline-form"
      data-testid={props.testId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = checkSearchBoxText(typed.replace(/\s+/g, ''));
        if ('problem' in checked) {
          setProblem(checked.problem);
          return;
        }
        setProblem(undefined);
        props.onChoose(checked.box);
      }}
    >
      <Field
        label="Box (west, south, east, north)"
        name="box"
        value={typed}
        placeholder="5.9,45.8,10.5,47.8"
        error={problem}
        onValue={setTyped}
      />
      <button type="submit">{props.submitLabel}</button>
    </form>
  );
}
