import { DomainError, streamCategoryOf, type DomainEvent } from '@portal/domain';
import { inSpan, tracerOf } from '@portal/platform';
import type { LoadedStream } from './load-stream.js';

const tracer = tracerOf('@portal/commands');

/** What validating a command found: the stream it was decided on, the command, and its events. */
export interface Decision<Command, Event extends DomainEvent, State> {
  readonly stream: LoadedStream<State>;
  readonly command: Command;
  readonly events: readonly Event[];
}

/**
 * `decide` inside a `command.validate` span: reading the stream, making the command (rights, outside
 * facts), the expected revision and the decider's verdict, one per attempt. A refusal (`DomainError`) is
 * an answer, not a failure: the span names its code and keeps status unset, as the HTTP span does for 4xx.
 */
export function validationSpan<Command, Event extends DomainEvent, State>(
  streamId: string,
  attempt: number,
  decide: () => Promise<Decision<Command, Event, State>>,
): Promise<Decision<Command, Event, State>> {
  const attributes = {
    'portal.stream.category': streamCategoryOf(streamId),
    'portal.command.attempt': attempt,
  };
  const isFailure = (error: unknown): boolean => !(error instanceof DomainError);
  return inSpan(tracer, 'command.validate', { attributes, isFailure }, async (span) => {
    try {
      const decision = await decide();
      const type = commandTypeOf(decision.command);
      if (type !== undefined) span.setAttribute('portal.command.type', type);
      span.setAttribute('portal.command.events', decision.events.length);
      return decision;
    } catch (error) {
      if (error instanceof DomainError) span.setAttribute('portal.command.refusal', error.code);
      throw error;
    }
  });
}

/** Commands are tagged objects (`{ type, data }`): the tag is one of a fixed set. */
function commandTypeOf(command: unknown): string | undefined {
  const type = (command as { readonly type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}
