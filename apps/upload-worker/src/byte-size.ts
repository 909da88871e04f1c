const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** `12 MiB`, `1.5 GiB`, `800 bytes`: sizes in status messages a person reads. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes;
  let unit: string = 'bytes';
  for (const next of UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}
