import { describeCommand, type Answer, type Command } from './commands.js';
import { answerMatches, describeExpected, predict } from './predict.js';
import type { World } from './world.js';

/**
 * Commands sent at once may take effect in any order, but in some order: each answer must be the one
 * the model gives for its command at its place in that order. A batch's possible outcomes are the worlds
 * at the end of every such order; none means the service did something no order explains.
 */
export interface Sent {
  readonly command: Command;
  readonly answer: Answer;
}

/**
 * A command that lost a race may be refused for that alone, and then changed nothing: a 409
 * CONCURRENCY_CONFLICT (e.g. a create buried because a concurrent move widened its place) when it had
 * company; a 503 (BUSY: the organization's structure stream stayed held; NOT_CAUGHT_UP: the read models
 * the rules read stayed behind on a busy machine) at any time, when retrying did not help.
 */
export function lostARace(answer: Answer, batchSize: number): boolean {
  if (answer.status === 503) return true;
  return batchSize > 1 && answer.status === 409 && answer.code === 'CONCURRENCY_CONFLICT';
}

/** Canonical text of a world, to tell apart outcomes that differ. */
export function fingerprint(world: World): string {
  const objects = [...world.objects.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((object) => ({
      ...object,
      shares: [...object.shares].sort((a, b) => a.principal.id.localeCompare(b.principal.id)),
    }));
  const roles = [...world.roles.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([orgId, members]) => [orgId, [...members.entries()].sort(([a], [b]) => a.localeCompare(b))]);
  return JSON.stringify({ objects, roles });
}

/** Every distinct world some order of the batch ends in. */
export function outcomesOf(world: World, batch: readonly Sent[]): World[] {
  const effective = batch.filter(({ answer }) => !lostARace(answer, batch.length));
  const ends = new Map<string, World>();
  const visit = (at: World, remaining: readonly Sent[]): void => {
    if (remaining.length === 0) {
      ends.set(fingerprint(at), at);
      return;
    }
    remaining.forEach(({ command, answer }, index) => {
      const prediction = predict(at, command);
      if (!answerMatches(prediction.expected, answer)) return;
      visit(
        prediction.apply(answer),
        remaining.filter((_, other) => other !== index),
      );
    });
  };
  visit(world, effective);
  return [...ends.values()];
}

/** What a batch no order explains looked like: each command, its answer, and what it would get first. */
export function describeBatch(world: World, batch: readonly Sent[], name: (id: string) => string): string {
  return batch
    .map(({ command, answer }) => {
      const alone = describeExpected(predict(world, command).expected);
      const got = `${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
      const why = answer.message ? ` "${answer.message}"` : '';
      return `  ${describeCommand(command, name)}: answered ${got}${why}; the model, first in the batch: ${alone}`;
    })
    .join('\n');
}
