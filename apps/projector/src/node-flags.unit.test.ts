import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFlagsOf, PROJECTOR_NODE_FLAGS, rebuildingScripts } from './node-flags.js';

const repoRoot = new URL('../../../', import.meta.url);

function linesOf(file: string): string[] {
  return readFileSync(new URL(file, repoRoot), 'utf8').split('\n');
}

/** Where a process that may rebuild is started, by file: the script each line that starts node names. */
const launchers: readonly (readonly [file: string, script: string])[] = [
  ['scripts/start.sh', 'apps/projector/src/main.ts'],
  ['package.json', 'scripts/admin/main.ts'],
  ['apps/projector/package.json', 'src/main.ts'],
  ['apps/projector/package.json', 'src/rebuild.ts'],
  ['deploy/compose/compose.yaml', 'apps/projector/src/main.ts'],
  ['Dockerfile', 'apps/projector/src/main.ts'],
  ['Dockerfile', 'apps/projector/src/rebuild.ts'],
  ['Dockerfile', 'scripts/admin/main.ts'],
  ['deploy/README.md', 'apps/projector/src/rebuild.ts'],
  ['deploy/README.md', 'scripts/admin/main.ts'],
];

describe('the projector processes\u2019 node flags', () => {
  it('are given to the scripts that may rebuild, and to no other', () => {
    expect(rebuildingScripts).toEqual(
      expect.arrayContaining([
        'apps/projector/src/main.ts',
        'apps/projector/src/rebuild.ts',
        'scripts/admin/main.ts',
      ]),
    );
    for (const script of rebuildingScripts) expect(nodeFlagsOf(script), script).toEqual(PROJECTOR_NODE_FLAGS);
    expect(nodeFlagsOf('apps/api/src/main.ts')).toEqual([]);
    expect(nodeFlagsOf('apps/upload-worker/src/main.ts')).toEqual([]);
  });

  it('are stated wherever such a process is started with node', () => {
    // Every rebuilding script has a launch point here.
    for (const script of rebuildingScripts) {
      expect(
        launchers.some(([, named]) => script.endsWith(named)),
        script,
      ).toBe(true);
    }
    for (const [file, script] of launchers) {
      const starts = linesOf(file).filter((line) => line.includes(script) && /\bnode\b|'node'/.test(line));
      expect(starts.length, `${file}: a line starting ${script}`).toBeGreaterThan(0);
      for (const line of starts) {
        for (const flag of PROJECTOR_NODE_FLAGS) expect(line, `${file}: ${line.trim()}`).toContain(flag);
      }
    }
  });

  it('are in the NODE_OPTIONS of the Kubernetes projector and its rebuild job', () => {
    for (const file of [
      'deploy/kubernetes/projector/deployment.yaml',
      'deploy/kubernetes/projector/rebuild-cronjob.yaml',
    ]) {
      const lines = linesOf(file);
      const name = lines.findIndex((line) => line.includes('name: NODE_OPTIONS'));
      expect(name, file).toBeGreaterThanOrEqual(0);
      for (const flag of PROJECTOR_NODE_FLAGS) expect(lines[name + 1], file).toContain(flag);
    }
  });
});
