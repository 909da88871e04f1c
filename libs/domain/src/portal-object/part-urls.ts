import { DomainError } from '../errors.js';
import { noUpload, type LiveUploadItem } from './item-state.js';
import type { PortalObjectState } from './state.js';

export interface PartUrlRequest {
  readonly id: string;
  readonly partNumbers: readonly number[];
  readonly ancestorDeleted: boolean;
  /** ISO 8601 UTC. */
  readonly now: string;
}

/**
 * Whether fresh URLs may be handed out for these parts: a query, not a command (nothing is recorded),
 * but the same rules as a completion — the item's upload is open, not expired, and has these parts.
 * Answers the item whose upload the URLs are for.
 */
export function checkPartUrlRequest(state: PortalObjectState, request: PartUrlRequest): LiveUploadItem {
  const { id } = request;
  if (state.status === 'absent') throw new DomainError('NOT_FOUND', `item ${id} does not exist`);
  if (state.status === 'deleted') throw new DomainError('NOT_FOUND', `${state.kind} ${id} was deleted`);
  if (request.ancestorDeleted) throw new DomainError('NOT_FOUND', `item ${id} was deleted with an ancestor`);
  if (state.kind !== 'item') {
    throw new DomainError('INVALID_COMMAND', `${state.kind} ${id} is not an item and has no upload`);
  }
  if (state.upload === null) throw noUpload(id);
  if (state.uploadStatus !== 'uploading' && state.uploadStatus !== 'failed') {
    throw new DomainError(
      'INVALID_STATE',
      `item ${id} is ${state.uploadStatus}: its upload takes no more parts`,
    );
  }
  if (request.now >= state.upload.expiresAt) {
    throw new DomainError('INVALID_STATE', `the upload of item ${id} expired at ${state.upload.expiresAt}`);
  }
  const { partCount } = state.upload;
  const beyond = partCount === null ? undefined : request.partNumbers.find((number) => number > partCount);
  if (beyond !== undefined) {
    throw new DomainError(
      'INVALID_COMMAND',
      `part ${beyond} is beyond the ${partCount} parts of this upload`,
    );
  }
  return state;
}
