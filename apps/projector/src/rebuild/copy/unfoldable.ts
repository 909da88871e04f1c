/**
 * An event the in-memory fold cannot reproduce exactly as the SQL statements would (a row they would
 * not find, a timestamp it cannot order as PostgreSQL does). The copy rebuild then starts over on the
 * SQL path, which applies (or refuses) the history as it always did: nothing is guessed.
 */
export class UnfoldableHistoryError extends Error {
  override readonly name = 'UnfoldableHistoryError';
  constructor(
    readonly eventId: string,
    reason: string,
  ) {
    super(`event ${eventId} cannot be folded in memory: ${reason}`);
  }
}
