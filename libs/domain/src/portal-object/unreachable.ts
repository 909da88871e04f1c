/**
 * Closes a switch over a tagged union: a new member that is not handled fails to compile here.
 * At run time it only fires when data bypassed the types (a stored event of an unknown type).
 */
export function unreachable(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
