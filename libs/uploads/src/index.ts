export * from './object-store.js';
export { S3ObjectStore, type S3Settings } from './s3-object-store.js';
export { downloadHeadersOf, INLINE_CONTENT_TYPES, type DownloadHeaders } from './download-headers.js';
export { objectKeyOf, safeFileName } from './object-key.js';
export * from './upload-queue.js';
export { s3SettingsOf } from './settings.js';
