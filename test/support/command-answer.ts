/**
 * How tests and benchmarks accept a command's answer, with plain `fetch` and no vitest import (like
 * stack.ts), so both share it.
 *
 * A command answers its success status (`201` for a create) once its events are projected, or `202`
 * with the same body and `X-Event-Position` when the projection is slower than the API waits
 * (`PROJECTION_WAIT_MS`: a busy machine, a long transaction elsewhere in the cluster). Both are success.
 * After a `202` the caller waits with `X-Min-Position`, so its next read sees the write, as after the
 * success status.
 */

export interface CommandAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** How long to wait for a projection before calling it lost: well past any busy moment of the machine. */
const PROJECTION_DEADLINE_MS = 60_000;
/** Between two reads answered 503 at once (a stack with a short `PROJECTION_WAIT_MS`). */
const RETRY_PAUSE_MS = 50;

/**
 * Accepts `answer` when it is `success`, or a `202` whose write the read models then reach; anything
 * else throws with the answer's body. `what` names the command in that error.
 */
export async function settleCommandAt(
  baseUrl: string,
  answer: CommandAnswer,
  success: number,
  what: string,
): Promise<void> {
  if (answer.status === success) return;
  const position = answer.headers.get('x-event-position');
  if (answer.status !== 202 || position === null) {
    throw new Error(`${what}: answered ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  await waitForPositionAt(baseUrl, position);
}

/** Waits until the stack's read models include `position` (each read waits up to the API's bound, then 503). */
export async function waitForPositionAt(baseUrl: string, position: string): Promise<void> {
  const deadline = Date.now() + PROJECTION_DEADLINE_MS;
  for (;;) {
    const read = await fetch(`${baseUrl}/health`, { headers: { 'x-min-position': position } });
    const text = await read.text();
    if (read.status === 200) return;
    if (read.status !== 503) throw new Error(`waiting for position ${position}: ${read.status} ${text}`);
    if (Date.now() > deadline) throw new Error(`the read models did not reach position ${position}`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
  }
}
