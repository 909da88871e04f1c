/**
 * The single way a route reports a client error: throw `HttpProblem`, and the error middleware
 * writes the API's error body `{ message, code?, details? }` with the status.
 */
export interface ProblemDetail {
  readonly path: string;
  readonly message: string;
}

export class HttpProblem extends Error {
  override readonly name = 'HttpProblem';
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: readonly ProblemDetail[],
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}
