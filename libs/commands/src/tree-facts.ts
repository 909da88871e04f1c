/**
 * What the rules about a subtree need to know (does a container have children, how deep is a subtree,
 * who may change what is below). The event store has no index of children, so these come from the tree
 * read model, after `awaitCommitted`: in the API, the projected `portal_objects`; in the structure tests,
 * a reference projection kept in memory.
 */
export interface TreeFacts {
  /**
   * Resolves once the facts include every write acknowledged before the call (the event store's
   * `syncPosition`); throws `BUSY` when the read model cannot get there in time.
   */
  awaitCommitted(): Promise<void>;
  /** Live children of the object, whoever may see them; 0 for an unknown id. */
  liveChildCount(id: string): Promise<number>;
  /** Levels of live objects below the object: 0 for a leaf. */
  subtreeHeight(id: string): Promise<number>;
  /** Whether some live object below `id` gives none of `principals` the right to change it. */
  subtreeHasObjectNotEditableBy(id: string, principals: readonly string[]): Promise<boolean>;
  /** Whether some live object below `id` was created by someone other than `userId`. */
  subtreeHasObjectNotCreatedBy(id: string, userId: string): Promise<boolean>;
  /**
   * The live items directly below `parentId` holding the STAC name (docs/stac.md, "Item ids"): none or
   * one, a few when moves brought more together.
   */
  liveItemsNamed(parentId: string, stacId: string): Promise<readonly string[]>;
}
