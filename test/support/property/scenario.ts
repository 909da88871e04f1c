import { randomUUID } from 'node:crypto';
import { settleCommandAt, waitForPositionAt } from '../command-answer.js';
import { callAt } from '../http.js';
import type { Stack } from '../stack.js';
import { castAt, type Cast } from './cast.js';
import { rebuildProblems } from './check-rebuild.js';
import { readProblems } from './check-reads.js';
import { treeProblems } from './check-tree.js';
import { send } from './driver.js';
import { describeBatch, lostARace, outcomesOf, type Sent } from './linearize.js';
import { agreeingWithService } from './observe.js';
import { describeWorld, traceOfStep } from './report.js';
import { resolveStep } from './resolve.js';
import type { Step } from './steps.js';
import type { World } from './world.js';

/**
 * One run of the property test: new people, then the steps one after another (the commands of a step
 * at once), each batch of answers explained by some order of its commands, and the three properties
 * checked along the way and at the end. Throws with what went wrong and the run so far.
 */

export interface RunOptions {
  /** Reads (property b) are checked after every this many steps, and always at the end. */
  readonly checkEvery: number;
}

export interface RunTally {
  commands: number;
  concurrentSteps: number;
  /** Commands refused only for losing a race (409 CONCURRENCY_CONFLICT, 503 BUSY). */
  racesLost: number;
  /** Batches whose answers several orders explained, settled by reading the service's state. */
  settledByReading: number;
  refusals: number;
  objects: number;
  /** Where the time went, in milliseconds: signing up and inviting the people, the steps, the checks. */
  setupMs: number;
  commandsMs: number;
  readsMs: number;
  treeMs: number;
  rebuildMs: number;
  /** How often each kind of command got each answer, e.g. `move 409 CYCLE`. */
  readonly answers: Map<string, number>;
}

type Phase = 'setupMs' | 'commandsMs' | 'readsMs' | 'treeMs' | 'rebuildMs';

export function emptyTally(): RunTally {
  return {
    commands: 0,
    concurrentSteps: 0,
    racesLost: 0,
    settledByReading: 0,
    refusals: 0,
    objects: 0,
    setupMs: 0,
    commandsMs: 0,
    readsMs: 0,
    treeMs: 0,
    rebuildMs: 0,
    answers: new Map(),
  };
}

class Run {
  world: World;
  readonly ids: string[] = [];
  readonly trace: string[] = [];

  constructor(
    readonly stack: Stack,
    readonly cast: Cast,
    readonly tally: RunTally,
  ) {
    this.world = cast.world;
  }

  fail(what: string, problems: readonly string[]): never {
    throw new Error(
      [
        `${what}:`,
        ...problems.slice(0, 40).map((line) => `  ${line}`),
        'the run so far:',
        ...this.trace.map((line) => `  ${line}`),
        'the model’s objects:',
        ...describeWorld(this.world, this.cast.nameOf).map((line) => `  ${line}`),
      ].join('\n'),
    );
  }

  async timed<T>(phase: Phase, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.tally[phase] += performance.now() - started;
    }
  }

  count(batch: readonly Sent[]): void {
    for (const { command, answer } of batch) {
      const key = `${command.type} ${answer.status}${answer.code === null ? '' : ` ${answer.code}`}`;
      this.tally.answers.set(key, (this.tally.answers.get(key) ?? 0) + 1);
      if (lostARace(answer, batch.length)) this.tally.racesLost += 1;
      else if (answer.status >= 400) this.tally.refusals += 1;
    }
    this.tally.commands += batch.length;
    if (batch.length > 1) this.tally.concurrentSteps += 1;
  }

  async step(index: number, step: Step): Promise<void> {
    const { stack, cast, world } = this;
    const commands = resolveStep(cast, world, this.ids, step);
    const answers = await Promise.all(commands.map((command) => send(stack.baseUrl, cast, command)));
    const batch = commands.map((command, at): Sent => {
      const answer = answers[at];
      if (!answer) throw new Error('an answer is missing');
      return { command, answer };
    });
    for (const { answer } of batch) {
      if (answer.status === 202 && answer.position) await waitForPositionAt(stack.baseUrl, answer.position);
    }
    this.count(batch);
    this.trace.push(...traceOfStep(index, batch, cast.nameOf));
    let outcomes = outcomesOf(world, batch);
    if (outcomes.length === 0) {
      this.fail('no order of the batch explains its answers', [describeBatch(world, batch, cast.nameOf)]);
    }
    if (outcomes.length > 1) {
      this.tally.settledByReading += 1;
      outcomes = await agreeingWithService(stack.baseUrl, cast, world, outcomes);
    }
    const [after] = outcomes;
    if (!after) {
      this.fail('the service ended in a state no order of the batch leads to', [
        describeBatch(world, batch, cast.nameOf),
      ]);
    }
    this.world = after;
    for (const { answer } of batch) {
      if (answer.createdId !== null && !this.ids.includes(answer.createdId)) this.ids.push(answer.createdId);
    }
  }

  /**
   * A write of its own after everything else, whose position the read models must reach: a command that
   * lost a race may have written (a buried create) without telling where, and reads must see that too.
   */
  async settleReadModels(): Promise<void> {
    const { baseUrl } = this.stack;
    const owner = this.cast.ownerOf(this.cast.organizations.at(-1) ?? '');
    const marker = await callAt(baseUrl, 'POST', '/api/v1/portal/catalogs/create', {
      headers: owner.headers,
      body: { title: `Marker ${randomUUID()}`, description: 'caught up', links: [], visibility: 'private' },
    });
    await settleCommandAt(baseUrl, marker, 201, 'the marker create');
  }

  async checkReads(when: string): Promise<void> {
    await this.settleReadModels();
    const problems = await readProblems(this.stack.baseUrl, this.cast, this.world);
    if (problems.length > 0) this.fail(`reads differ from the rights the model gives (${when})`, problems);
  }

  async checkTree(): Promise<void> {
    const problems = await treeProblems(this.stack.baseUrl, this.cast, this.world);
    if (problems.length > 0) this.fail('the tree differs from the model or is not one', problems);
  }

  async checkRebuild(): Promise<void> {
    const problems = await rebuildProblems(this.stack);
    if (problems.length > 0) this.fail('the read models differ from a rebuild', problems);
  }
}

/** Runs `steps`, adding what it did to `tally` as it goes (a failed run counts too). */
export async function runScenario(
  stack: Stack,
  steps: readonly Step[],
  options: RunOptions,
  tally: RunTally,
): Promise<void> {
  const started = performance.now();
  const cast = await castAt(stack.baseUrl);
  tally.setupMs += performance.now() - started;
  const run = new Run(stack, cast, tally);
  for (const [index, step] of steps.entries()) {
    await run.timed('commandsMs', () => run.step(index, step));
    const done = index + 1;
    if (done % options.checkEvery === 0 && done < steps.length) {
      await run.timed('readsMs', () => run.checkReads(`after step ${done}`));
    }
  }
  tally.objects += run.world.objects.size;
  await run.timed('readsMs', () => run.checkReads('at the end'));
  await run.timed('treeMs', () => run.checkTree());
  await run.timed('rebuildMs', () => run.checkRebuild());
}
