import { useId, useState } from 'preact/hooks';

/**
 * A file picker that also takes a dropped file. The native input stays the control (reachable with
 * Tab, opened with Enter or Space); the zone around it only adds dropping.
 */
export function DropZone(props: {
  readonly label: string;
  readonly file: File | null;
  readonly onFile: (file: File) => void;
  readonly error?: string | undefined;
}) {
  const id = useId();
  const [over, setOver] = useState(false);
  return (
    <div
      class={over ? 'drop-zone over' : 'drop-zone'}
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => {
        setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const file = event.dataTransfer?.files[0];
        if (file) props.onFile(file);
      }}
    >
      <label for={`${id}-file`}>{props.label}</label>
      <input
        id={`${id}-file`}
        type="file"
        name="file"
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) props.onFile(file);
        }}
      />
      <span class="hint">
        {props.file ? `${props.file.name}, ${props.file.size.toLocaleString()} bytes` : 'or drop a file here'}
      </span>
      {props.error ? (
        <span class="field-error" data-testid="error-file">
          {props.error}
        </span>
      ) : null}
    </div>
  );
}
