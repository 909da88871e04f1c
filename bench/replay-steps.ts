/**
 * Where a replay's time goes, per kind of step: the replay bench's history applied as the projector's
 * batches do (runs of sets between lone events), counting statements and timing their round trips.
 * Usage: npx tsx bench/replay-steps.ts [--events 20000] [--batch-size 500] [--floor no]
 */
import { eventMixes, type EventMixName } from './replay/portal-history.js';
import { profileSteps } from './replay/step-profile.js';
import { choiceList, isOn, positiveInt, readOptions } from './support/options.js';
import { useTestServiceDefaults } from './support/services.js';
import { printJsonLine, printTable } from './support/table.js';

const raw = readOptions('npx tsx bench/replay-steps.ts [options]', {
  events: { env: 'BENCH_STEPS_EVENTS', default: '20000', help: 'events of the replay history to apply' },
  'batch-size': { env: 'BENCH_STEPS_BATCH_SIZE', default: '500', help: 'events per batch transaction' },
  seed: { env: 'BENCH_REPLAY_SEED', default: '20261121', help: 'seed of the synthetic history' },
  mix: {
    env: 'BENCH_REPLAY_MIX',
    default: 'default',
    help: 'history: default, creates or items (registered by href)',
  },
  floor: {
    env: 'BENCH_STEPS_FLOOR',
    default: 'yes',
    help: 'also write the same rows again with no logic, into copies of the tables (yes or no)',
  },
});
const options = {
  events: positiveInt('events', raw.events),
  batchSize: positiveInt('batch-size', raw['batch-size']),
  seed: positiveInt('seed', raw.seed),
  mix: choiceList('mix', raw.mix, Object.keys(eventMixes) as EventMixName[])[0] ?? 'default',
  floor: isOn(raw.floor),
};
useTestServiceDefaults();
const profile = await profileSteps(options);
const totalMs = profile.costs.reduce((sum, cost) => sum + cost.ms, 0);
printTable(
  `Steps of ${profile.events.toLocaleString('en-US')} replayed events, batch ${options.batchSize}: ` +
    `${Math.round(profile.events / profile.seconds).toLocaleString('en-US')} events/s without the batch bookkeeping ` +
    '(ms: round trips as the projector measures them)',
  ['step', 'events', 'statements', 'per event', 'ms', 'ms/event', 'share of ms'],
  profile.costs.map((cost) => [
    cost.step,
    cost.events,
    cost.statements,
    cost.statements / cost.events,
    cost.ms,
    cost.ms / cost.events,
    `${((100 * cost.ms) / totalMs).toFixed(1)}%`,
  ]),
);
printTable(
  'The same statements by prepared name (or first words), every step together',
  ['statement', 'calls', 'ms', 'ms/call', 'share of ms'],
  profile.statements
    .slice(0, 15)
    .map((cost) => [
      cost.statement,
      cost.calls,
      cost.ms,
      cost.ms / cost.calls,
      `${((100 * cost.ms) / totalMs).toFixed(1)}%`,
    ]),
);
printTable(
  'Row writes by table (HOT: updates that wrote no index entry)',
  ['table', 'inserts', 'updates', 'HOT updates', 'HOT share'],
  profile.tableWrites.map((writes) => [
    writes.table,
    writes.inserts,
    writes.updates,
    writes.hotUpdates,
    writes.updates === 0 ? '–' : `${((100 * writes.hotUpdates) / writes.updates).toFixed(1)}%`,
  ]),
);
const floor = profile.floor;
if (floor) {
  const floorMs = floor.kinds.reduce((sum, kind) => sum + kind.ms, 0);
  printTable(
    `The same row writes with no logic, into copies of the tables with every index, in the same batches: ` +
      `${Math.round(floor.events / floor.seconds).toLocaleString('en-US')} events/s ` +
      `(the floor is ${((floor.seconds / profile.seconds) * 100).toFixed(0)} % of the replay's time; ` +
      `${floor.objectUpdates.hot.toLocaleString('en-US')} of ${floor.objectUpdates.updates.toLocaleString('en-US')} ` +
      'object updates heap-only)',
    ['write', 'rows', 'ms', 'ms/row', 'ms/event', 'share of ms'],
    floor.kinds.map((kind) => [
      kind.kind,
      kind.rows,
      kind.ms,
      kind.rows === 0 ? '–' : kind.ms / kind.rows,
      kind.ms / floor.events,
      `${((100 * kind.ms) / floorMs).toFixed(1)}%`,
    ]),
  );
}
printJsonLine('replay-steps', { options, ...profile });
