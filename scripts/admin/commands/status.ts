import { comparePositions, formatPosition } from '@portal/domain';
import { WATCHED_JOB_STATES } from '@portal/uploads';
import { findLeader, type LeaderConnection } from '../../../apps/projector/src/leadership.js';
import { lagInEvents, readProjectionStatus } from '../../../apps/projector/src/metrics/projection-status.js';
import { nextEventAfter } from '../../../apps/projector/src/next-event.js';
import { leadershipName } from '../../../apps/projector/src/run-projector.js';
import { defineCommand, type AdminContext } from '../cli/command.js';
import { AdminFailure } from '../cli/failure.js';
import { duration, table, when } from '../cli/table.js';
import { projectionSource } from './projection.js';

type QueueDepth = Record<(typeof WATCHED_JOB_STATES)[number], number> | { readonly error: string };

async function uploadQueueDepth(context: AdminContext): Promise<QueueDepth> {
  const { resources } = context;
  try {
    const counts = await resources.redis(() =>
      resources.uploadQueue.queue.getJobCounts(...WATCHED_JOB_STATES),
    );
    return Object.fromEntries(WATCHED_JOB_STATES.map((state) => [state, counts[state] ?? 0])) as QueueDepth;
  } catch (error) {
    // The projection's half of the answer is still worth having when Redis is away.
    if (error instanceof AdminFailure) return { error: error.message };
    throw error;
  }
}

function leaderText(leader: LeaderConnection | null): string {
  if (!leader) return 'none: no projector holds the projection lock';
  const where = leader.clientAddress === null ? '' : ` at ${leader.clientAddress}`;
  return `${leader.applicationName ?? 'a connection'} (pid ${leader.pid}${where}, since ${when(leader.connectedAt)})`;
}

export const statusCommand = defineCommand({
  path: ['status'],
  positionals: [],
  options: {},
  summary: 'projection checkpoint, head, lag, leader, halt and dead letters; upload queue depth',
  details: [
    "Reads the projection from the database and the event store, as the projector's metrics do, so it",
    'answers the same whichever instance leads, and while none does. The lag in seconds is the age of',
    'the oldest event not yet projected (0 when caught up). "halted" means a dead letter lies ahead of',
    'the checkpoint: the projection will not pass it by itself (see dead-letters). The upload queue',
    'depth is read from Redis; when Redis is away the rest is still shown. Changes nothing.',
  ].join('\n'),
  async run(context) {
    const source = projectionSource(context);
    const store = await context.resources.store();
    const [status, leader, queue] = await Promise.all([
      readProjectionStatus({ ...source, store }),
      findLeader(source.pool, leadershipName(source.projection, source.schema)),
      uploadQueueDepth(context),
    ]);
    const behind = comparePositions(status.checkpoint, status.head) < 0;
    const oldestWaiting = behind ? await nextEventAfter(store, status.checkpoint) : null;
    const lagSeconds = oldestWaiting
      ? Math.max(0, (context.now().getTime() - Date.parse(oldestWaiting.metadata.occurredAt)) / 1000)
      : 0;
    const lagEvents = lagInEvents(status);
    const json = {
      projection: {
        name: source.projection,
        checkpoint: formatPosition(status.checkpoint),
        head: formatPosition(status.head),
        lagEvents,
        lagSeconds: Math.round(lagSeconds * 1000) / 1000,
        halted: status.stuckOnDeadLetter,
        leader: leader && {
          pid: leader.pid,
          applicationName: leader.applicationName,
          clientAddress: leader.clientAddress,
          since: leader.connectedAt?.toISOString() ?? null,
        },
        deadLetters: { open: status.openDeadLetters, total: status.deadLetters },
      },
      uploadQueue: queue,
    };
    const halted = status.stuckOnDeadLetter
      ? `yes: stopped before a dead letter (npm run admin -- dead-letters list)`
      : 'no';
    const queueText =
      'error' in queue
        ? `  unknown: ${queue.error}`
        : table(
            WATCHED_JOB_STATES.map((state) => state),
            [WATCHED_JOB_STATES.map((state) => String(queue[state]))],
          )
            .split('\n')
            .map((line) => `  ${line}`)
            .join('\n');
    const text = [
      `projection ${source.projection}`,
      `  checkpoint    ${json.projection.checkpoint} (head ${json.projection.head})`,
      `  lag           ${lagEvents} events, ${duration(lagSeconds)}`,
      `  leader        ${leaderText(leader)}`,
      `  halted        ${halted}`,
      `  dead letters  ${status.openDeadLetters} open, ${status.deadLetters} recorded in all`,
      'upload queue (jobs by state)',
      queueText,
    ].join('\n');
    return { json, text };
  },
});
