import type { CommandHandling } from './handler/handle-command.js';
import type { OrganizationDirectory } from './organizations.js';
import type { TreeFacts } from './tree-facts.js';

/** What every command of this library works with; time and ids come in, so tests can set them. */
export interface CommandContext extends CommandHandling {
  readonly tree: TreeFacts;
  readonly now: () => Date;
  readonly structure: StructureSettings;
  readonly organizations: OrganizationDirectory;
}

export interface StructureSettings {
  /**
   * A structure operation still undecided this long after it started is taken for dead (its process
   * crashed) and may be abandoned by the next command that meets it. Longer than any live operation
   * takes: its read-model wait is bounded well below this.
   */
  readonly abandonAfterMs: number;
  /** How long a move or delete waits for another one of its organization before answering `BUSY`. */
  readonly waitMs: number;
  /** Pause between two looks at a structure stream while waiting; grows up to `maxPollMs`. */
  readonly firstPollMs?: number;
  readonly maxPollMs?: number;
}
