const SAFE_NAME_MAX = 200;

/**
 * The object key of an item's file: under the item's id, so keys never collide, with a readable file
 * name when the client gave one. Only characters safe in URLs and every S3 implementation are kept.
 */
export function objectKeyOf(itemId: string, fileName: string | null): string {
  return `items/${itemId}/${safeFileName(fileName)}`;
}

export function safeFileName(fileName: string | null): string {
  const safe = (fileName ?? '')
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, SAFE_NAME_MAX);
  return safe === '' ? 'data' : safe;
}
