import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { emptyTally, runScenario, type RunTally } from './support/property/scenario.js';
import { stepArbitrary } from './support/property/steps.js';
import { startStack, type Stack } from './support/stack.js';

/**
 * A property test of the whole command side, over HTTP: random runs of creates, moves, deletes, shares,
 * visibility and membership changes by the members of two organizations and another tenant, one at a
 * time and several at once. After every batch some order of its commands must explain every answer; and
 * (a) each organization's tree is a tree holding every live object where the model has it, (b) every
 * read of every object by every person and an anonymous caller answers what the model's rights allow,
 * (c) the read models equal a rebuild from the events. The model (support/property/) is written from
 * docs/identity.md, not from the production code.
 *
 * `PROPERTY_SEED=<the printed seed>` replays a run's commands (concurrent ones may interleave
 * differently), with `PROPERTY_PATH=<the printed path>` the failing run alone; `PROPERTY_SHRINK=true`
 * lets fast-check shrink a failure to a minimal run (slow: every attempt is a run). `PROPERTY_RUNS` and
 * `PROPERTY_STEPS` change the size, `PROPERTY_CHECK_EVERY` how often reads are checked during a run.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PATH = process.env.PROPERTY_PATH;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 5);
const STEPS = Number(process.env.PROPERTY_STEPS ?? 30);
const CHECK_EVERY = Number(process.env.PROPERTY_CHECK_EVERY ?? 10);
const SHRINK = process.env.PROPERTY_SHRINK === 'true';
/** Shrinking stops after this long and reports the smallest failing run found by then. */
const SHRINK_BUDGET_MS = 20 * 60_000;

function summary(tallies: readonly RunTally[], seconds: number): string {
  const sum = (field: Exclude<keyof RunTally, 'answers'>) =>
    tallies.reduce((total, tally) => total + tally[field], 0);
  const inSeconds = (field: Exclude<keyof RunTally, 'answers'>) => (sum(field) / 1000).toFixed(1);
  const answers = new Map<string, number>();
  for (const tally of tallies) {
    for (const [key, count] of tally.answers) answers.set(key, (answers.get(key) ?? 0) + count);
  }
  const byAnswer = [...answers.entries()].sort(([a], [b]) => a.localeCompare(b));
  return [
    `command properties: ${tallies.length} runs in ${seconds} s: ${sum('commands')} commands ` +
      `(${sum('concurrentSteps')} steps sent at once, ${sum('refusals')} refused, ${sum('racesLost')} lost a race, ` +
      `${sum('settledByReading')} settled by reading), ${sum('objects')} objects`,
    `command properties: seconds in setup ${inSeconds('setupMs')}, commands ${inSeconds('commandsMs')}, ` +
      `reads ${inSeconds('readsMs')}, tree ${inSeconds('treeMs')}, rebuild ${inSeconds('rebuildMs')}`,
    `command properties: answers ${byAnswer.map(([key, count]) => `${key} ×${count}`).join(', ')}`,
  ].join('\n');
}

describe('the command side under random interleavings', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  it(
    'keeps the tree whole, reads exact and the read models equal to a rebuild',
    { timeout: SHRINK ? SHRINK_BUDGET_MS + 300_000 : 600_000 },
    async () => {
      console.log(
        `command properties: seed ${SEED} (replay with PROPERTY_SEED=${SEED}), ${RUNS} runs of ${STEPS} steps`,
      );
      const started = performance.now();
      const tallies: RunTally[] = [];
      const property = fc.asyncProperty(
        // Always STEPS long, so a run's time is known; shrinking turns steps into skips (`null`).
        fc.array(fc.option(stepArbitrary, { freq: 20, nil: null }), { minLength: STEPS, maxLength: STEPS }),
        async (steps) => {
          const tally = emptyTally();
          tallies.push(tally);
          const taken = steps.filter((step) => step !== null);
          await runScenario(stack, taken, { checkEvery: CHECK_EVERY }, tally);
        },
      );
      try {
        await fc.assert(property, {
          seed: SEED,
          numRuns: RUNS,
          endOnFailure: !SHRINK,
          ...(SHRINK ? { interruptAfterTimeLimit: SHRINK_BUDGET_MS } : {}),
          ...(PATH === undefined ? {} : { path: PATH }),
        });
      } catch (error) {
        console.log(
          `command properties: failed; replay with PROPERTY_SEED=${SEED} PROPERTY_PATH=<the path below>`,
        );
        throw error;
      } finally {
        console.log(summary(tallies, Math.round((performance.now() - started) / 1000)));
      }
    },
  );
});
