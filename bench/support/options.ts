import { parseArgs } from 'node:util';

/** One command-line option; the environment variable is the fallback, then the default. */
export interface OptionSpec {
  readonly env: string;
  readonly default: string;
  readonly help: string;
  /** A switch such as `--replay`: present means "true". */
  readonly flag?: boolean;
}

/**
 * Reads `--name value` (or `--name=value`) options, falling back to the environment, so a CI job can
 * size a benchmark without editing its command line. `--help` prints the options and exits.
 */
export function readOptions<Name extends string>(
  usage: string,
  specs: Readonly<Record<Name, OptionSpec>>,
  argv: readonly string[] = process.argv.slice(2),
): Record<Name, string> {
  const names = Object.keys(specs) as Name[];
  const { values: parsed } = parseArgs({
    args: [...argv],
    options: {
      help: { type: 'boolean' },
      ...Object.fromEntries(
        names.map((name) => [name, { type: specs[name].flag === true ? 'boolean' : 'string' }]),
      ),
    },
    strict: true,
    allowPositionals: false,
  });
  const values = parsed as Readonly<Record<string, string | boolean | undefined>>;
  if (values.help === true) {
    process.stdout.write(`${usage}\n\n${describeOptions(specs)}\n`);
    process.exit(0);
  }
  const read = {} as Record<Name, string>;
  for (const name of names) {
    const given = values[name];
    const spec = specs[name];
    read[name] =
      typeof given === 'string' ? given : given === true ? 'true' : (process.env[spec.env] ?? spec.default);
  }
  return read;
}

function describeOptions(specs: Readonly<Record<string, OptionSpec>>): string {
  return Object.entries(specs)
    .map(([name, spec]) => {
      const shown = spec.flag === true ? `--${name}` : `--${name} <value>`;
      return `  ${shown.padEnd(24)} ${spec.help} (env ${spec.env}, default ${spec.default || 'off'})`;
    })
    .join('\n');
}

export function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`--${name} must be a positive integer, got "${text}"`);
  }
  return value;
}

export function nonNegativeInt(name: string, text: string): number {
  return text.trim() === '0' ? 0 : positiveInt(name, text);
}

/** A duration or share that may be fractional, e.g. `--duration-s 0.5` for a quick run. */
export function positiveNumber(name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`--${name} must be a positive number, got "${text}"`);
  }
  return value;
}

export function nonNegativeNumber(name: string, text: string): number {
  return text.trim() === '0' ? 0 : positiveNumber(name, text);
}

export function positiveIntList(name: string, text: string): number[] {
  return text.split(',').map((part) => positiveInt(name, part.trim()));
}

export function isOn(text: string): boolean {
  return text === 'true' || text === '1' || text === 'yes';
}

/** A comma-separated subset of `allowed`, in the order given. */
export function choiceList<Choice extends string>(
  name: string,
  text: string,
  allowed: readonly Choice[],
): Choice[] {
  return text.split(',').map((part) => {
    const choice = allowed.find((candidate) => candidate === part.trim());
    if (choice === undefined) {
      throw new RangeError(`--${name} accepts ${allowed.join(', ')}; got "${part}"`);
    }
    return choice;
  });
}
