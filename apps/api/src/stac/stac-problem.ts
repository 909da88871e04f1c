import { HttpProblem } from '../http/problem.js';

/** A 400 of a STAC parameter: the message names the parameter, the code says what is wrong. */
export function badParameter(parameter: string, message: string, code = 'INVALID_PARAMETER'): HttpProblem {
  return new HttpProblem(400, `${parameter}: ${message}`, code);
}
