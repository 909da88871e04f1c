/**
 * The `asOf` value for a `datetime-local` input's text: the input names a wall-clock time of the
 * user's zone without one, the API takes RFC 3339 with a zone, so the local time is turned into UTC.
 * `null` for an empty or impossible value.
 */
export function asOfFromLocalTime(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(local)) return null;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** The `datetime-local` text of a moment in the user's zone, to the second (the input's default). */
export function localTimeOf(moment: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}` +
    `T${pad(moment.getHours())}:${pad(moment.getMinutes())}:${pad(moment.getSeconds())}`
  );
}
