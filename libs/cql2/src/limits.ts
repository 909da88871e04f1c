/**
 * Bounds on what one filter may ask for, so a large or deep filter is a 400, never a stack overflow,
 * an exhausted process or a runaway query. Sized for real clients: hand-written filters and a footprint
 * polygon of a few thousand vertices.
 */
/** Room for a polygon at the coordinates limit written with full double precision (~40 characters each). */
export const MAX_CQL2_TEXT_LENGTH = 500_000;
/** Nesting of expressions, parentheses, function arguments and arrays. */
export const MAX_CQL2_DEPTH = 40;
/** Nodes of the tree (each literal, property, operator and function counts one). */
export const MAX_CQL2_NODES = 2_000;
/** Positions in all geometry literals of one filter together. */
export const MAX_CQL2_COORDINATES = 10_000;
/** Numbers are IEEE doubles; literals outside ±1e300 (other than 0 inside ±1e-300) are refused. */
export const MAX_CQL2_NUMBER_MAGNITUDE = 1e300;
export const MIN_CQL2_NUMBER_MAGNITUDE = 1e-300;
