import type { RecordedEvent } from '@portal/domain';
import type { Footprint, FootprintOf, Projection, Sql } from '@portal/read-model-core';
import { SlugFamilies } from './slug-families.js';

/** A step of a batch: events applied together by every read model's `applyRun`, or one event alone. */
export type BatchStep =
  | { readonly kind: 'run'; readonly events: readonly RecordedEvent[] }
  | { readonly kind: 'alone'; readonly event: RecordedEvent; readonly index: number };

/** Every read model's footprint of an event, or `null` when one of them needs it alone. */
export type FootprintsOf = (event: RecordedEvent) => Footprint[] | null;

/** What the events of the current run touch, merged over every read model. */
class RunFootprint {
  private readonly changed = new Set<string>();
  private readonly read = new Set<string>();
  private readonly slugs = new Map<string, SlugFamilies>();

  /** Whether `footprint` can join the run without its order relative to the run's events mattering. */
  admits(footprint: Footprint): boolean {
    for (const key of footprint.changes ?? []) if (this.changed.has(key) || this.read.has(key)) return false;
    for (const key of footprint.reads ?? []) if (this.changed.has(key)) return false;
    return (footprint.slugs ?? []).every((slug) => this.slugs.get(slug.group)?.clashes(slug.base) !== true);
  }

  add(footprint: Footprint): void {
    for (const key of footprint.changes ?? []) this.changed.add(key);
    for (const key of footprint.reads ?? []) this.read.add(key);
    for (const slug of footprint.slugs ?? []) {
      let families = this.slugs.get(slug.group);
      if (!families) {
        families = new SlugFamilies();
        this.slugs.set(slug.group, families);
      }
      families.add(slug.base);
    }
  }
}

/** Each read model's footprint from the event alone (`SetHandler.footprint`). */
export function eventFootprints(projection: Projection): FootprintsOf {
  return combined(projection.readModels.map((readModel) => readModel.sets?.footprint.bind(readModel.sets)));
}

/**
 * Each read model's footprints for one batch: `batchFootprints` where a read model gives it (it reads,
 * once, what its footprints need beyond the events), else `footprint`.
 */
export async function batchFootprints(
  sql: Sql,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<FootprintsOf> {
  const ofs: (FootprintOf | undefined)[] = [];
  for (const { sets } of projection.readModels) {
    ofs.push(sets?.batchFootprints ? await sets.batchFootprints(sql, events) : sets?.footprint.bind(sets));
  }
  return combined(ofs);
}

/** `null` as soon as one read model needs the event alone (a read model without sets needs every one). */
function combined(ofs: readonly (FootprintOf | undefined)[]): FootprintsOf {
  return (event) => {
    const footprints: Footprint[] = [];
    // Every read model is asked, in event order: a batch's footprints follow the batch through.
    let alone = false;
    for (const of of ofs) {
      const footprint = of?.(event) ?? null;
      if (footprint === null) alone = true;
      else footprints.push(footprint);
    }
    return alone ? null : footprints;
  };
}

/**
 * Cuts a batch, in event order, into runs that every read model can apply as sets, and the events
 * between them that must be applied alone (moves of subtrees, access changes…). A run ends before an
 * event that changes what an event of the run changed or read, reads what one changed, or takes or
 * frees a slug of the same family in the same sibling group: within a run the order of events then
 * does not matter, and applying it as sets leaves the rows applying it event by event would.
 */
export function cutIntoSteps(
  projection: Projection,
  events: readonly RecordedEvent[],
  footprintsOf: FootprintsOf = eventFootprints(projection),
): BatchStep[] {
  const steps: BatchStep[] = [];
  let run: RecordedEvent[] = [];
  let touched = new RunFootprint();
  const endRun = (): void => {
    if (run.length > 0) steps.push({ kind: 'run', events: run });
    run = [];
    touched = new RunFootprint();
  };
  for (const [index, event] of events.entries()) {
    const footprints = footprintsOf(event);
    if (footprints === null) {
      endRun();
      steps.push({ kind: 'alone', event, index });
      continue;
    }
    if (!footprints.every((footprint) => touched.admits(footprint))) endRun();
    for (const footprint of footprints) touched.add(footprint);
    run.push(event);
  }
  endRun();
  return steps;
}
