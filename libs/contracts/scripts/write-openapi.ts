/**
 * Writes `libs/contracts/openapi.json` from the zod schemas. With `--check`, writes nothing and
 * exits 1 when the committed file differs from what the code generates (CI and `npm run check`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../src/index.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
const displayPath = 'libs/contracts/openapi.json';

async function readCommitted(): Promise<string | undefined> {
  try {
    return await readFile(target, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** 1-based number of the first line that differs, to point the reader at the drift. */
function firstDifferentLine(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  return (index === -1 ? left.length : index) + 1;
}

async function main(): Promise<number> {
  const generated = serializeOpenApiDocument(buildOpenApiDocument());
  if (!process.argv.includes('--check')) {
    await writeFile(target, generated);
    console.log(`wrote ${displayPath}`);
    return 0;
  }
  const committed = await readCommitted();
  if (committed === generated) {
    console.log(`${displayPath} is up to date`);
    return 0;
  }
  const why =
    committed === undefined
      ? 'is missing'
      : `differs from the generated document (first difference at line ${firstDifferentLine(committed, generated)})`;
  console.error(`${displayPath} ${why}. Run \`npm run openapi\` and commit the result.`);
  return 1;
}

process.exitCode = await main();
