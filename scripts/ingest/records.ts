import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { createInterface } from 'node:readline';

/** One command line for the bulk endpoint, and where it came from (for the failure report). */
export interface SourceLine {
  readonly text: string;
  readonly origin: string;
}

/** A record the CLI does not load (a static catalog's `catalog.json`), and why. */
export interface SkippedRecord {
  readonly skipped: string;
  readonly origin: string;
}

export interface Source {
  readonly total: number;
  readonly lines: () => AsyncIterable<SourceLine | SkippedRecord>;
}

const keyOf = (...parts: string[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/**
 * An NDJSON file as it is, line by line; a line without an `idempotencyKey` gets one made of the file's
 * name, the line number and its text, so loading the same file again applies nothing twice.
 */
async function ndjsonSource(path: string): Promise<Source> {
  let total = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line.trim() !== '') total += 1;
  }
  const name = basename(path);
  return {
    total,
    lines: async function* () {
      let number = 0;
      for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
        number += 1;
        if (text.trim() === '') continue;
        yield { text: withKey(text, keyOf(name, String(number), text)), origin: `${name}:${number}` };
      }
    },
  };
}

function withKey(text: string, key: string): string {
  try {
    const command = JSON.parse(text) as unknown;
    if (typeof command !== 'object' || command === null || Array.isArray(command)) return text;
    if ('idempotencyKey' in command) return text;
    return JSON.stringify({ ...command, idempotencyKey: key });
  } catch {
    // Sent as it is: the service answers which line is malformed.
    return text;
  }
}

type Json = Record<string, unknown>;

const text = (value: unknown, fallback: string) =>
  typeof value === 'string' && value !== '' ? value : fallback;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record's absolute `self` href: what its relative hrefs resolve against. */
function selfHref(record: Json): string | null {
  const links = Array.isArray(record['links']) ? (record['links'] as Json[]) : [];
  const self = links.find((link) => link['rel'] === 'self' && typeof link['href'] === 'string');
  const href = self?.['href'];
  return typeof href === 'string' && URL.canParse(href) ? href : null;
}

/**
 * An href as the record means it: a relative one resolved against the record's absolute `self` link.
 * Without one it stays as it is, and the service refuses an asset naming it (a portal asset's href must
 * say where the file is).
 */
function resolved(href: unknown, base: string | null): unknown {
  return base === null || typeof href !== 'string' || URL.canParse(href)
    ? href
    : new URL(href, base).toString();
}

/** A STAC Item's assets, registered by href as they are (hrefs resolved); what is not an object, as sent. */
function assetsOf(record: Json): Json {
  const assets = record['assets'];
  if (typeof assets !== 'object' || assets === null || Array.isArray(assets)) return {};
  const base = selfHref(record);
  return Object.fromEntries(
    Object.entries(assets as Record<string, unknown>).map(([key, asset]) => {
      if (typeof asset !== 'object' || asset === null || Array.isArray(asset)) return [key, asset];
      const { href } = asset as Json;
      return [key, { ...asset, href: resolved(href, base) }];
    }),
  );
}

/**
 * The links of a static catalog's structure (where the record sat among the files): the portal writes
 * its own; kept, a served item would have two `self` links, one pointing into the source's files.
 */
const STRUCTURE_RELS = new Set(['self', 'root', 'parent', 'collection', 'child', 'item', 'items']);

/** The record's own links as portal links, hrefs resolved against its `self` link. */
function linksOf(record: Json): Json[] {
  if (!Array.isArray(record['links'])) return [];
  const base = selfHref(record);
  return (record['links'] as unknown[])
    .filter((link): link is Json => typeof link === 'object' && link !== null)
    .filter((link) => typeof link['href'] === 'string' && typeof link['rel'] === 'string')
    .filter((link) => !STRUCTURE_RELS.has(String(link['rel'])))
    .map((link) => ({
      href: resolved(link['href'], base),
      rel: link['rel'],
      title: text(link['title'], String(link['rel'])),
      type: text(link['type'], 'application/json'),
      targetType: 'web',
      linkJson: {},
    }));
}

/**
 * A STAC-like record as a command: a Feature (STAC Item; a record without `type` is taken for one)
 * becomes an item under `parentId` registered by href (its assets, ready at once: nothing is uploaded),
 * named by its `id` (the item's STAC id, unless it is a UUID, which the portal does not take from its
 * own API), with its geometry, bbox, datetimes, keywords as tags and the rest of its properties; a
 * Collection becomes a collection (under `parentId`, or at the root level), named by its `id` alike
 * (a collection's name is unique in the whole portal: docs/stac.md, "Collection ids"). Links keep `href`, `rel`,
 * `type` and `title`, but a static catalog's structure (`self`, `root`, `parent`, …). Any other type (a
 * `catalog.json`) is no command: `null`, and the CLI skips the file, saying so.
 */
export function commandOfRecord(record: Json, parentId: string | null, fileName: string): Json | null {
  const properties = (record['properties'] ?? {}) as Json;
  const links = linksOf(record);
  if (record['type'] !== undefined && record['type'] !== 'Feature' && record['type'] !== 'Collection') {
    return null;
  }
  const id = record['id'];
  const stacId = typeof id === 'string' && id !== '' && !UUID.test(id) ? { stacId: id } : {};
  if (record['type'] === 'Collection') {
    return {
      type: 'createCollection',
      body: {
        title: text(record['title'], text(id, fileName)),
        ...stacId,
        description: text(record['description'], text(record['title'], fileName)),
        links,
        ...(parentId === null ? {} : { parentId }),
        ...(typeof record['license'] === 'string' ? { license: record['license'] } : {}),
        ...(Array.isArray(record['keywords']) ? { keywords: record['keywords'] } : {}),
      },
    };
  }
  const { datetime, start_datetime, end_datetime, title, description, keywords, ...rest } = properties;
  return {
    type: 'createItem',
    body: {
      title: text(title, text(id, fileName)),
      ...stacId,
      assets: assetsOf(record),
      ...(typeof description === 'string' ? { description } : {}),
      links,
      ...(parentId === null ? {} : { parentId }),
      ...(record['geometry'] ? { geometry: record['geometry'] } : {}),
      ...(Array.isArray(record['bbox']) ? { bbox: record['bbox'] } : {}),
      ...(typeof datetime === 'string' ? { datetime } : {}),
      ...(typeof start_datetime === 'string' ? { start_datetime } : {}),
      ...(typeof end_datetime === 'string' ? { end_datetime } : {}),
      ...(Array.isArray(keywords) ? { tags: keywords } : {}),
      ...(Object.keys(rest).length > 0 ? { properties: rest } : {}),
    },
  };
}

async function jsonFilesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** A directory of STAC-like JSON records (searched recursively), one command per `.json` file. */
async function directorySource(directory: string, parentId: string | null): Promise<Source> {
  const files = await jsonFilesUnder(directory);
  return {
    total: files.length,
    lines: async function* () {
      for (const file of files) {
        const origin = relative(directory, file);
        const content = await readFile(file, 'utf8');
        let command: Json | null;
        let record: Json = {};
        try {
          record = JSON.parse(content) as Json;
          command = commandOfRecord(record, parentId, basename(file, '.json'));
        } catch {
          // Sent as one line that is not a command: the service refuses it, and the summary names the file.
          command = { type: 'unreadable', file: origin };
        }
        if (command === null) {
          const skipped = `a STAC ${JSON.stringify(record['type'])} record: only Items and Collections are loaded`;
          yield { skipped, origin };
          continue;
        }
        yield { text: JSON.stringify({ ...command, idempotencyKey: keyOf(origin, content) }), origin };
      }
    },
  };
}

export async function sourceOf(path: string, parentId: string | null): Promise<Source> {
  return (await stat(path)).isDirectory() ? directorySource(path, parentId) : ndjsonSource(path);
}
