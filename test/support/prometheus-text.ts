/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (what prom-client writes), so a test
 * fails on output a Prometheus server would reject, not only on missing numbers.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: string;
  readonly help: string;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** Sample names a family of each type may hold, beside its own name. */
const SUFFIXES: Readonly<Record<string, readonly string[]>> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

export class ExpositionError extends Error {
  override readonly name = 'ExpositionError';
}

/** Parses the whole text; throws `ExpositionError` naming the line at the first thing out of format. */
export function parseExposition(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new ExpositionError('the exposition must end with a line feed');
  lines.pop();
  lines.forEach((line, index) => {
    const fail = (problem: string): never => {
      throw new ExpositionError(`line ${index + 1}: ${problem}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) return; // A plain comment.
      const [, keyword, name = '', rest = ''] = match;
      if (!METRIC_NAME.test(name)) fail('bad metric name');
      const family = families.get(name) ?? { name, type: 'untyped', help: '', samples: [] };
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest)) fail('unknown type');
        if (family.samples.length > 0) fail('TYPE after samples');
        families.set(name, { ...family, type: rest });
      } else {
        families.set(name, { ...family, help: rest });
      }
      return;
    }
    const sample = parseSample(line, fail);
    const family = familyOf(families, sample.name);
    if (!family) fail('a sample without its # TYPE');
    family?.samples.push(sample);
  });
  for (const family of families.values()) checkFamily(family);
  return families;
}

function familyOf(families: Map<string, MetricFamily>, sampleName: string): MetricFamily | undefined {
  const own = families.get(sampleName);
  if (own) return own;
  for (const family of families.values()) {
    const suffixes = SUFFIXES[family.type] ?? [];
    if (suffixes.some((suffix) => sampleName === family.name + suffix)) return family;
  }
  return undefined;
}

function parseSample(line: string, fail: (problem: string) => never): Sample {
  const nameMatch = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
  if (!nameMatch?.[1]) return fail('bad sample name');
  const name = nameMatch[1];
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const pair = /^([^=]+)="((?:[^"\\\n]|\\\\|\\"|\\n)*)",?/.exec(rest);
      if (!pair?.[1] || pair[2] === undefined) return fail('bad label pair');
      if (!LABEL_NAME.test(pair[1])) fail('bad label name');
      if (pair[1] in labels) fail('repeated label');
      labels[pair[1]] = pair[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      rest = rest.slice(pair[0].length);
    }
    rest = rest.slice(1);
  }
  const valueMatch = /^ (\S+)( -?\d+)?$/.exec(rest);
  if (!valueMatch?.[1]) return fail('bad value');
  const value = parseValue(valueMatch[1]);
  if (value === null) return fail('value is not a number');
  return { name, labels, value };
}

/**
 * A sample value as Prometheus reads it (Go's `strconv.ParseFloat`): the special values in any case.
 * prom-client writes `Nan` for a gauge with no data yet (the event-loop lag right after start).
 */
function parseValue(text: string): number | null {
  const special = text.toLowerCase();
  if (special === 'nan') return Number.NaN;
  if (special === '+inf' || special === 'inf') return Number.POSITIVE_INFINITY;
  if (special === '-inf') return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return null;
  return Number(text);
}

/** Histograms: buckets cumulative, ending at `+Inf` equal to `_count`; counters never negative. */
function checkFamily(family: MetricFamily): void {
  const fail = (problem: string): never => {
    throw new ExpositionError(`${family.name}: ${problem}`);
  };
  if (family.type === 'counter' && family.samples.some((sample) => sample.value < 0))
    fail('negative counter');
  if (family.type !== 'histogram') return;
  const series = new Map<string, Sample[]>();
  for (const sample of family.samples) {
    if (!sample.name.endsWith('_bucket')) continue;
    const { le, ...rest } = sample.labels;
    if (le === undefined) fail('a bucket without le');
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  for (const [key, buckets] of series) {
    const bounds = buckets.map((bucket) => parseValue(bucket.labels['le'] ?? '') ?? Number.NaN);
    if (bounds.at(-1) !== Number.POSITIVE_INFINITY) fail(`${key}: the last bucket is not +Inf`);
    for (let index = 1; index < buckets.length; index += 1) {
      if ((bounds[index] ?? 0) <= (bounds[index - 1] ?? 0)) fail(`${key}: bucket bounds not increasing`);
      if ((buckets[index]?.value ?? 0) < (buckets[index - 1]?.value ?? 0))
        fail(`${key}: buckets not cumulative`);
    }
    const count = family.samples.find(
      (sample) => sample.name === `${family.name}_count` && JSON.stringify(sample.labels) === key,
    );
    if (count?.value !== buckets.at(-1)?.value) fail(`${key}: _count differs from the +Inf bucket`);
  }
}

/** The sum of the samples named `name` whose labels include `labels`; 0 when there is none. */
export function valueOf(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  let total = 0;
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name !== name) continue;
      if (Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
        total += sample.value;
    }
  }
  return total;
}

/** Every name a query may use against this exposition: family names and their sample names. */
export function namesIn(families: Map<string, MetricFamily>): Set<string> {
  const names = new Set<string>();
  for (const family of families.values()) {
    names.add(family.name);
    for (const sample of family.samples) names.add(sample.name);
    for (const suffix of SUFFIXES[family.type] ?? []) names.add(family.name + suffix);
  }
  return names;
}

export async function scrape(url: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`scrape ${url}: ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain') || !type.includes('version=0.0.4')) {
    throw new Error(`scrape ${url}: content type ${type}, expected text/plain; version=0.0.4`);
  }
  return parseExposition(await response.text());
}
