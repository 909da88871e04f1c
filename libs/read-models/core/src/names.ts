/**
 * The names the projector and its readers must agree on, said once: the API waits on the channel for
 * its own writes, the upload worker's webhook dispatcher wakes on it, and both read the checkpoint row.
 */

/** The one projection of the portal: its read models share a subscription and this checkpoint row. */
export const PORTAL_CHECKPOINT_NAME = 'portal';

/** Notified after each committed batch; the payload is the new checkpoint as `formatPosition` writes it. */
export const PORTAL_PROJECTION_CHANNEL = 'portal_projection';

/** The schema the read models live in (`PROJECTOR_READ_SCHEMA`); the API's queries name it. */
export const READ_SCHEMA = 'read';
