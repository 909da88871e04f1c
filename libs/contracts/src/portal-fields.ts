import { boundedText, uuid } from './messages.js';

/** The contract bounds these for collections; catalogs and items use the same bounds (our choice). */
export const TITLE_MAX = 140;
export const DESCRIPTION_MAX = 1000;

export const titleSchema = boundedText(1, TITLE_MAX);
export const descriptionSchema = boundedText(1, DESCRIPTION_MAX);
export const parentIdSchema = uuid().meta({ description: 'Id of the parent; absent for the root level.' });

/** Portal object kinds and item statuses (DESIGN §6). */
export const portalKinds = ['catalog', 'collection', 'item'] as const;
export const portalItemStatuses = [
  'uploading',
  'processing',
  'ready',
  'failed',
  'aborted',
  'expired',
] as const;
