/**
 * What a presigned download tells the browser. The bucket's origin serves whatever bytes a user
 * uploaded, under the content type they declared: an HTML file (or SVG, or anything a browser sniffs
 * into HTML) shown inline there would run its scripts on that origin. So a download is shown inline
 * only when its declared type is on a short list of raster image types, which browsers never execute
 * or sniff into a document; everything else is an attachment served as `application/octet-stream`.
 * S3 cannot add `X-Content-Type-Options: nosniff` to a presigned answer, hence the neutral type.
 */
export interface DownloadHeaders {
  readonly contentDisposition: string;
  readonly contentType: string;
}

/** Raster images: rendered as an image document, never as markup. */
export const INLINE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);

const NEUTRAL_CONTENT_TYPE = 'application/octet-stream';

/** `image/PNG; charset=x` → `image/png`: the type without parameters, as browsers compare it. */
function essenceOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function dispositionOf(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The `Content-Disposition` and `Content-Type` a download of `key` is served with. Without a file name
 * the object key's last segment names the file (`data` when the upload gave none).
 */
export function downloadHeadersOf(
  key: string,
  declared: { readonly fileName: string | null; readonly contentType: string | null },
): DownloadHeaders {
  const fileName = declared.fileName ?? key.slice(key.lastIndexOf('/') + 1);
  const essence = declared.contentType === null ? null : essenceOf(declared.contentType);
  if (essence !== null && INLINE_CONTENT_TYPES.has(essence)) {
    return { contentDisposition: dispositionOf('inline', fileName), contentType: essence };
  }
  return { contentDisposition: dispositionOf('attachment', fileName), contentType: NEUTRAL_CONTENT_TYPE };
}
