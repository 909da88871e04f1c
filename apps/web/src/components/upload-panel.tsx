import type { PortalItemRecord } from '@portal/contracts';
import { useEffect, useState } from 'preact/hooks';
import { useStore } from '../lib/store.js';
import { cancelUpload, resumeUpload, uploadsStore, type UploadState } from '../upload/manager.js';
import { formatBytes, formatDuration } from '../upload/plan.js';
import { isSameFile, resumeRecordOf } from '../upload/resume-records.js';
import { DropZone } from './drop-zone.js';
import { ErrorMessage } from './error-message.js';

const PHASE_TEXT: Record<UploadState['phase'], string> = {
  uploading: 'uploading',
  completing: 'assembling the parts',
  processing: 'processing',
  ready: 'ready',
  failed: 'failed',
  cancelled: 'cancelled',
  error: 'stopped',
};

function Progress(props: { readonly upload: UploadState }) {
  const { progress, phase } = props.upload;
  const percent = progress.total === 0 ? 100 : Math.floor((progress.bytes / progress.total) * 100);
  return (
    <div class="upload-progress" data-testid="upload-progress">
      <p>
        <strong>{props.upload.fileName}</strong>:{' '}
        <span data-testid="upload-phase" aria-live="polite">
          {PHASE_TEXT[phase]}
        </span>
      </p>
      <progress max={100} value={percent} aria-label="Upload progress" data-testid="upload-bar" />
      <p class="upload-figures" data-testid="upload-figures">
        {formatBytes(progress.bytes)} of {formatBytes(progress.total)} ({percent}%)
        {phase === 'uploading' && progress.rate !== null ? ` · ${formatBytes(progress.rate)}/s` : ''}
        {phase === 'uploading' && progress.etaSeconds !== null
          ? ` · ${formatDuration(progress.etaSeconds)} left`
          : ''}
      </p>
      {props.upload.message ? (
        <p class="error" role="alert" data-testid="upload-message">
          {props.upload.message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * An item's upload: the progress of one running in this page, or, for an item still `uploading`
 * after a reload, a way to resume it (pick the same file again) or to cancel it.
 */
export function UploadPanel(props: { readonly record: PortalItemRecord; readonly onSettled: () => void }) {
  const { record, onSettled } = props;
  const uploads = useStore(uploadsStore);
  const upload = uploads.get(record.id);
  const [error, setError] = useState<unknown>(null);
  const resume = resumeRecordOf(record.id);
  const phase = upload?.phase;

  // A verdict changes the record (status, assets): read it again.
  useEffect(() => {
    if (phase === 'ready' || phase === 'failed' || phase === 'cancelled') onSettled();
  }, [phase, onSettled]);

  const cancel = (
    <button
      type="button"
      class="secondary"
      onClick={() => {
        setError(null);
        cancelUpload(record.id).catch(setError);
      }}
    >
      Cancel upload
    </button>
  );

  if (
    upload &&
    (upload.phase === 'uploading' || upload.phase === 'completing' || upload.phase === 'processing')
  ) {
    return (
      <section class="upload" aria-label="Upload">
        <Progress upload={upload} />
        {upload.phase === 'uploading' ? cancel : null}
        <ErrorMessage error={error} />
      </section>
    );
  }
  if (record.status !== 'uploading') return upload ? <Progress upload={upload} /> : null;
  return (
    <section class="upload" aria-label="Upload">
      {upload ? <Progress upload={upload} /> : null}
      <p data-testid="resume-hint">
        This file has not been uploaded completely.
        {resume ? ` Choose ${resume.fileName} again to send the rest.` : ' Choose the file to send it.'}
      </p>
      <DropZone
        label="Resume with file"
        file={null}
        onFile={(file) => {
          setError(null);
          if (resume && !isSameFile(resume, file)) {
            setError(
              new Error(
                `that is not ${resume.fileName} (${resume.size.toLocaleString()} bytes), the file this upload started with`,
              ),
            );
            return;
          }
          resumeUpload(record.id, file).catch(setError);
        }}
      />
      {cancel}
      <ErrorMessage error={error} />
    </section>
  );
}
