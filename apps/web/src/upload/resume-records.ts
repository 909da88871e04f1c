/**
 * What a reload needs to resume an upload: which file it was (name, size, last change) and how it
 * was cut. Kept in localStorage per item until the upload ends; the bytes themselves the user picks
 * again (a page cannot reopen a file by itself).
 */
export interface ResumeRecord {
  readonly itemId: string;
  readonly fileName: string;
  readonly size: number;
  readonly lastModified: number;
  readonly partSize: number;
}

const key = (itemId: string) => `portal-upload:${itemId}`;

export function saveResumeRecord(record: ResumeRecord): void {
  try {
    localStorage.setItem(key(record.itemId), JSON.stringify(record));
  } catch {
    // Storage full or refused (private mode): the upload runs; only a resume after reload is lost.
  }
}

export function resumeRecordOf(itemId: string): ResumeRecord | null {
  try {
    const text = localStorage.getItem(key(itemId));
    return text === null ? null : (JSON.parse(text) as ResumeRecord);
  } catch {
    return null;
  }
}

export function forgetResumeRecord(itemId: string): void {
  try {
    localStorage.removeItem(key(itemId));
  } catch {
    // Nothing to forget.
  }
}

/** Whether the file picked again is the one the upload started with. */
export function isSameFile(
  record: ResumeRecord,
  file: { name: string; size: number; lastModified: number },
): boolean {
  return (
    record.fileName === file.name && record.size === file.size && record.lastModified === file.lastModified
  );
}
