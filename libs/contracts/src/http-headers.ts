/** Header names of the consistency and concurrency protocol (docs/decisions.md), shared by API and docs. */
export const httpHeaders = {
  /** Response: opaque position of the command's last event. */
  eventPosition: 'X-Event-Position',
  /** Request: wait until the projections have passed this position (503 + Retry-After after the bound). */
  minPosition: 'X-Min-Position',
  /** Response: the object's revision, as a strong entity tag. */
  etag: 'ETag',
  /** Request: the revision the client last saw; a stale one answers 412. */
  ifMatch: 'If-Match',
  /** Request: a retry with the same key and body returns the first response. */
  idempotencyKey: 'Idempotency-Key',
  /** Request: `respond-async` answers 202 without waiting for the projection. */
  prefer: 'Prefer',
  preferenceApplied: 'Preference-Applied',
  retryAfter: 'Retry-After',
} as const;
