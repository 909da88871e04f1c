import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { call, createCatalog, defaultCredentialHeaders } from './support/http.js';
import { useSignedInCaller } from './support/auth.js';

useSignedInCaller();

const repoRoot = resolve(import.meta.dirname, '..');
const sample = join(import.meta.dirname, 'fixtures', 'stac-sample');
const scratch: string[] = [];

afterAll(async () => {
  await Promise.all(scratch.map((path) => rm(path, { recursive: true, force: true })));
});

interface Run {
  readonly code: number | null;
  readonly stderr: string;
}

/** `npm run ingest -- …` as a data engineer runs it, with the file's API key in the environment. */
function ingest(args: readonly string[]): Promise<Run> {
  const apiKey = (defaultCredentialHeaders()['authorization'] ?? '').replace(/^Bearer /, '');
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'ingest', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, PORTAL_API_KEY: apiKey, PORTAL_URL: inject('baseUrl') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => {
      done({ code, stderr });
    });
  });
}

interface Child {
  title: string;
  kind: string;
  status: string;
  stacId?: string;
  assets: { key?: string; href?: string }[];
}

async function childrenOf(catalogId: string): Promise<Child[]> {
  const page = await call<{ items: Child[] }>('GET', `/api/v1/portal/items/?parentId=${catalogId}&limit=100`);
  return page.body.items;
}

describe('npm run ingest loads a directory of STAC-like records', () => {
  it('creates one object per record, reports failures, and applies nothing twice when run again', async () => {
    const parentId = await createCatalog({ title: 'CLI target' });
    const directory = await mkdtemp(join(tmpdir(), 'ingest-cli-'));
    scratch.push(directory);
    await cp(sample, directory, { recursive: true });
    // A collection's name is unique in the whole portal: one of this run's own, so the test can run again.
    const collectionName = `survey-2026-${randomUUID().slice(0, 8)}`;
    const collectionFile = join(directory, 'collection.json');
    const collection = JSON.parse(await readFile(collectionFile, 'utf8')) as Record<string, unknown>;
    await writeFile(collectionFile, JSON.stringify({ ...collection, id: collectionName }));
    await writeFile(
      join(directory, 'items', 'broken.json'),
      JSON.stringify({ type: 'Feature', id: 'broken', properties: { datetime: 'yesterday' }, links: [] }),
    );

    // A static catalog's root: not an item nor a collection, so skipped, and said so.
    await writeFile(
      join(directory, 'catalog.json'),
      JSON.stringify({ type: 'Catalog', id: 'root', description: 'x', links: [], stac_version: '1.0.0' }),
    );

    const first = await ingest([directory, '--parent', parentId]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('4 applied, 1 failed, 1 skipped of 6');
    expect(first.stderr).toMatch(/items\/broken\.json: 400 .*datetime/);
    expect(first.stderr).toMatch(/catalog\.json: skipped, a STAC "Catalog" record/);
    expect(first.stderr).toMatch(/6\/6 \(100\.0%\) \d+\/s ETA/);

    await rm(join(directory, 'items', 'broken.json'));
    const second = await ingest([directory, '--parent', parentId]);
    // The skipped catalog.json alone does not fail a run.
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('4 applied, 0 failed, 1 skipped of 5');

    // The CLI's requests answer their summary once projected: what it loaded is readable when it exits.
    const children = await childrenOf(parentId);
    expect(children.map((child) => child.title).sort()).toEqual([
      'Survey 2026',
      'Tile 1',
      'Tile 2',
      'Tile 3',
    ]);
    // STAC Items go in registered by href, ready at once, under their STAC ids; a relative asset href
    // resolved against the record's self link.
    expect(children.find((child) => child.kind === 'collection')?.stacId).toBe(collectionName);
    const tiles = children.filter((child) => child.kind === 'item');
    expect(tiles.map((tile) => [tile.stacId, tile.status]).sort()).toEqual([
      ['tile-1', 'ready'],
      ['tile-2', 'ready'],
      ['tile-3', 'ready'],
    ]);
    const tile2 = tiles.find((tile) => tile.stacId === 'tile-2');
    expect(tile2?.assets.map((asset) => [asset.key, asset.href]).sort()).toEqual([
      ['metadata', 's3://tiles/tile-2.xml'],
      ['visual', 'https://example.org/tiles/tile-2.tif'],
    ]);
  }, 120_000);
});
