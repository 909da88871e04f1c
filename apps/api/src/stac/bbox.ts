import { checkSearchBox, checkSearchBoxText, type SearchBox, type SearchBoxResult } from '@portal/contracts';
import { badParameter } from './stac-problem.js';

/** [west, south, east, north] in degrees; west > east crosses the antimeridian. */
export type Bbox = SearchBox;

const invalid = (message: string) => badParameter('bbox', message, 'INVALID_BBOX');

function boxOrThrow(result: SearchBoxResult): Bbox {
  if ('problem' in result) throw invalid(result.problem);
  return result.box;
}

/** A search's `bbox` of a POST body: the rule every box filter shares (`checkSearchBox`). */
export function parseBbox(values: readonly unknown[]): Bbox {
  return boxOrThrow(checkSearchBox(values));
}

/** `bbox=1,2,3,4` of a GET: every part must be a plain decimal number. */
export function parseBboxText(text: string): Bbox {
  return boxOrThrow(checkSearchBoxText(text));
}

/** The box as a GeoJSON geometry (the rule an item without a geometry is drawn by, too). */
export { bboxGeometry } from '@portal/read-model-portal-objects';
