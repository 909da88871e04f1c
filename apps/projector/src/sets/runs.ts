import type { RecordedEvent } from '@portal/domain';
import type { Footprint, Projection } from '@portal/read-model-core';
import { SlugFamilies } from './slug-families.js';

/** A step of a batch: events applied together by every read model's `applyRun`, or one event alone. */
export type BatchStep =
  | { readonly kind: 'run'; readonly events: readonly RecordedEvent[] }
  | { readonly kind: 'alone'; readonly event: RecordedEvent; readonly index: number };

/** What the events of the current run touch, merged over every read model. */
class RunFootprint {
  private readonly changed = new Set<string>();
  private readonly slugs = new Map<string, SlugFamilies>();

  /** Whether `footprint` can join the run without its order relative to the run's events mattering. */
  admits(footprint: Footprint): boolean {
    for (const key of footprint.changes ?? []) if (this.changed.has(key)) return false;
    const { slug } = footprint;
    return slug === undefined || this.slugs.get(slug.group)?.clashes(slug.base) !== true;
  }

  add(footprint: Footprint): void {
    for (const key of footprint.changes ?? []) this.changed.add(key);
    const { slug } = footprint;
    if (slug === undefined) return;
    let families = this.slugs.get(slug.group);
    if (!families) {
      families = new SlugFamilies();
      this.slugs.set(slug.group, families);
    }
    families.add(slug.base);
  }
}

/** Every read model's footprint of the event, or `null` when one of them needs it alone. */
function footprintsOf(projection: Projection, event: RecordedEvent): Footprint[] | null {
  const footprints: Footprint[] = [];
  for (const readModel of projection.readModels) {
    const footprint = readModel.sets?.footprint(event) ?? null;
    if (footprint === null) return null;
    footprints.push(footprint);
  }
  return footprints;
}

/**
 * Cuts a batch, in event order, into runs that every read model can apply as sets, and the events
 * between them that must be applied alone (moves, deletes, access changes, renames…). A run ends
 * before an event that changes a row an event of the run changed, or takes a slug of the same family
 * in the same sibling group: within a run the order of events then does not matter, and applying it
 * as sets leaves the rows applying it event by event would.
 */
export function cutIntoSteps(projection: Projection, events: readonly RecordedEvent[]): BatchStep[] {
  const steps: BatchStep[] = [];
  let run: RecordedEvent[] = [];
  let touched = new RunFootprint();
  const endRun = (): void => {
    if (run.length > 0) steps.push({ kind: 'run', events: run });
    run = [];
    touched = new RunFootprint();
  };
  for (const [index, event] of events.entries()) {
    const footprints = footprintsOf(projection, event);
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
