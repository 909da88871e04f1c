/**
 * One part PUT to its presigned URL with XMLHttpRequest: unlike fetch, it reports upload progress.
 * Resolves with the ETag the object store answered (the bucket's CORS rule exposes it).
 */
export function putPart(
  url: string,
  body: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const abort = () => {
      request.abort();
    };
    request.open('PUT', url);
    request.upload.onprogress = (event) => {
      onProgress(event.loaded);
    };
    request.onload = () => {
      signal.removeEventListener('abort', abort);
      const etag = request.getResponseHeader('ETag');
      if (request.status >= 200 && request.status < 300 && etag) {
        onProgress(body.size);
        resolve(etag);
      } else {
        reject(
          new Error(`the object store answered ${request.status} to part upload${etag ? '' : ' (no ETag)'}`),
        );
      }
    };
    request.onerror = () => {
      signal.removeEventListener('abort', abort);
      reject(new Error('a part upload failed: the object store could not be reached'));
    };
    request.onabort = () => {
      signal.removeEventListener('abort', abort);
      reject(new DOMException('cancelled', 'AbortError'));
    };
    if (signal.aborted) {
      reject(new DOMException('cancelled', 'AbortError'));
      return;
    }
    signal.addEventListener('abort', abort);
    request.send(body);
  });
}
