import { describeCommand } from './commands.js';
import type { Sent } from './linearize.js';
import { isGone, type World } from './world.js';

/**
 * What a failure report shows besides the failure: the run so far (every command with its answer, in
 * steps) and the model's objects at the end, so a failure can be understood without replaying it —
 * concurrent commands may not interleave the same way twice.
 */

export function traceOfStep(index: number, batch: readonly Sent[], name: (id: string) => string): string[] {
  const together = batch.length > 1 ? ' (at once)' : '';
  return batch.map(({ command, answer }, position) => {
    const prefix = position === 0 ? `step ${index + 1}${together}:` : '';
    const got = `${answer.status}${answer.code === null ? '' : ` ${answer.code}`}`;
    const made = answer.createdId === null ? '' : ` ${answer.createdId.slice(0, 8)}`;
    return `${prefix.padEnd(20)}${describeCommand(command, name)} → ${got}${made}`;
  });
}

export function describeWorld(world: World, name: (id: string) => string): string[] {
  return [...world.objects.values()].map((object) => {
    const shares = object.shares.map((share) => `${name(share.principal.id)}:${share.permission}`).join(', ');
    const state = object.tombstone ? ' deleted' : isGone(world, object.id) ? ' gone with an ancestor' : '';
    return [
      `${object.id.slice(0, 8)} ${object.kind} of ${name(object.orgId)} by ${name(object.createdBy)}`,
      `under ${object.parentId?.slice(0, 8) ?? 'root'}, ${object.visibility}`,
      shares === '' ? '' : `shared with ${shares}`,
    ]
      .filter(Boolean)
      .join(', ')
      .concat(state);
  });
}
