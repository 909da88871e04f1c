import { call as callOnce, type CallOptions, type JsonResponse } from '../http.js';
import { actingOf, type RightsModel } from './model.js';
import { retryWhileBusy, type Made } from './objects.js';
import type { CallerSpec } from './vocabulary.js';

/** Reading the answers of the rights table's cases (object-probes.ts, structure-probes.ts). */

/** What a case saw: a cell of the table (`Cell`) when the answer is one, else the answer's status. */
export type Observed = string;

/** A request as the case makes it: again while the service says it is busy (see `retryWhileBusy`). */
export function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions) {
  return retryWhileBusy(() => callOnce<T>(method, path, options));
}

/** A command's success, or a 202 that carries its position (the projection was slower): both ✓. */
export function commandCell(answer: JsonResponse, success: number): Observed {
  if (answer.status === success) return '✓';
  if (answer.status === 202 && answer.headers.has('x-event-position')) return '✓';
  return String(answer.status);
}

export function readCell(answer: JsonResponse): Observed {
  return answer.status === 200 ? '✓' : String(answer.status);
}

export function lookup<T>(record: Readonly<Record<string, T>>, key: string): T {
  const found = record[key];
  if (found === undefined) throw new Error(`unknown key "${key}"`);
  return found;
}

export function found<T>(map: ReadonlyMap<string, T>, key: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`nothing set up for "${key}"`);
  return value;
}

/** The secrets of `objects` (model name → made) that `caller` may not read. */
export function hiddenFrom(model: RightsModel, caller: CallerSpec, objects: [string, Made][]): string[] {
  const acting = actingOf(caller);
  return objects.filter(([name]) => !model.canRead(acting, name)).map(([, made]) => made.secret);
}
