import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { expectedRevisionFrom } from '../src/http/consistency.js';
import { HttpProblem } from '../src/http/problem.js';

function requestWith(ifMatch: string | undefined): Request {
  return {
    header: (name: string) => (name.toLowerCase() === 'if-match' ? ifMatch : undefined),
  } as unknown as Request;
}

describe('If-Match', () => {
  it('reads the revision of a strong or weak ETag', () => {
    expect(expectedRevisionFrom(requestWith('"3"'))).toBe(3n);
    expect(expectedRevisionFrom(requestWith('W/"12"'))).toBe(12n);
    expect(expectedRevisionFrom(requestWith(undefined))).toBeUndefined();
    expect(expectedRevisionFrom(requestWith('*'))).toBeUndefined();
  });

  it.each(['3', '"abc"', '"1", "2"', '"99999999999999999999"'])('refuses %s with a 400', (value) => {
    expect(() => expectedRevisionFrom(requestWith(value))).toThrow(HttpProblem);
  });
});
