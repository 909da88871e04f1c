import type { RecordedEvent } from '@portal/domain';
import { followPlacements } from '@portal/read-model-portal-objects';
import { eventMixes, PortalHistory } from '../replay/portal-history.js';

const n = 20000;
const history = new PortalHistory(20261121, eventMixes.default);
const events: RecordedEvent[] = Array.from({ length: n }, (_, index) => {
  const row = history.next();
  const position = BigInt(index + 1);
  return { id: row.eventId, streamId: row.streamId, revision: BigInt(row.revision), position: { commit: position, prepare: position }, type: row.type, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) } as RecordedEvent;
});
const batch = Number(process.argv[2] ?? 500);
const reasons = new Map<string, number>();
let runs = 0; let alone = 0;
const of = followPlacements(new Map());
for (let s = 0; s < n; s += batch) {
  let changed = new Set<string>(); let read = new Set<string>(); let slugs = new Map<string, string[]>();
  let len = 0;
  const slugKey = (g: string, b: string) => `${g}|${b.replace(/-\d+$/, '')}`;
  for (const e of events.slice(s, s + batch)) {
    const f = of(e);
    if (f === null) { if (len) runs++; len = 0; alone++; changed = new Set(); read = new Set(); slugs = new Map(); reasons.set(`alone ${e.type}`, (reasons.get(`alone ${e.type}`) ?? 0) + 1); continue; }
    let reason: string | null = null;
    for (const k of f.changes ?? []) if (changed.has(k)) reason ??= `${e.type} changes changed ${k.split(':')[0]}`; else if (read.has(k)) reason ??= `${e.type} changes read ${k.split(':')[0]}`;
    for (const k of f.reads ?? []) if (changed.has(k)) reason ??= `${e.type} reads changed ${k.split(':')[0]}`;
    for (const sl of f.slugs ?? []) if (slugs.has(slugKey(sl.group, sl.base))) reason ??= `${e.type} slug family`;
    if (reason) { reasons.set(reason, (reasons.get(reason) ?? 0) + 1); runs++; len = 0; changed = new Set(); read = new Set(); slugs = new Map(); }
    for (const k of f.changes ?? []) changed.add(k);
    for (const k of f.reads ?? []) read.add(k);
    for (const sl of f.slugs ?? []) slugs.set(slugKey(sl.group, sl.base), []);
    len++;
  }
  if (len) runs++;
}
console.log({ runs, alone, perRun: (n - alone) / runs });
console.log([...reasons.entries()].sort((a, b) => b[1] - a[1]));
