import type { RecordedEvent } from '@portal/domain';

/** What the projector tells its metrics (or nothing, in tests that do not look). */
export interface ProjectorObserver {
  /** This instance took (true) or gave up (false) the projection's leadership. */
  leading(isLeader: boolean): void;
  batchApplied(batch: readonly RecordedEvent[], durationMs: number): void;
  /** A poison event was dead-lettered and the projection stopped. */
  halted(): void;
}

export const UNOBSERVED_PROJECTOR: ProjectorObserver = {
  leading: () => undefined,
  batchApplied: () => undefined,
  halted: () => undefined,
};
