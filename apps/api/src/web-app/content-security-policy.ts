/**
 * The explorer's Content-Security-Policy: its own scripts and styles only, no inline script, and
 * requests to this origin plus the object store, where upload parts are PUT to presigned URLs.
 * Downloads are navigations to presigned URLs, which the policy does not govern.
 */
export function contentSecurityPolicy(objectStoreEndpoint: string): string {
  const objectStore = new URL(objectStoreEndpoint).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Inline style attributes position the rows of the virtualized lists.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${objectStore}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
