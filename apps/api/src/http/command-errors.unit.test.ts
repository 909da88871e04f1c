import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleCommand, type CommandHandling } from '@portal/commands';
import { eventMetadata, portalObjectDecider, streamIdOf, type PortalObjectCommand } from '@portal/domain';
import { InMemoryEventStore } from '@portal/eventstore';
import { problemOf } from './error-middleware.js';

const metadata = eventMetadata({
  actorId: randomUUID(),
  orgId: null,
  correlationId: randomUUID(),
  at: new Date(),
});

function createCatalog(id: string, title = 'Catalog'): PortalObjectCommand {
  return {
    type: 'CreateCatalog',
    data: {
      id,
      title,
      description: 'made by a test',
      links: [],
      parent: null,
      access: { orgId: null, createdBy: null },
    },
  };
}

const rename = (id: string, title: string): PortalObjectCommand => ({
  type: 'UpdatePortalObject',
  data: { id, changes: { title }, ancestorDeleted: false },
});

/** A catalog, and a handler that retries at most `attempts` times without pausing. */
async function aCatalog(attempts = 20) {
  const store = new InMemoryEventStore();
  const handling: CommandHandling = { store, newId: randomUUID, retry: { attempts, pauseMs: () => 0 } };
  const id = randomUUID();
  const streamId = streamIdOf('catalog', id);
  await handleCommand(handling, {
    streamId,
    decider: portalObjectDecider,
    expectedRevision: 'no_stream',
    command: createCatalog(id),
    metadata,
  });
  return { store, handling, id, streamId };
}

/** The answer the API gives for what a command through the handler threw. */
async function answerTo(command: Promise<unknown>) {
  const error = await command.then(
    () => {
      throw new Error('the command was expected to be refused');
    },
    (refusal: unknown) => refusal,
  );
  const problem = problemOf(error);
  if (!problem) throw new Error(`no answer for ${String(error)}`);
  return problem;
}

describe('refusals of the command handler over HTTP', () => {
  it('answers a stale If-Match with 412 STALE_REVISION', async () => {
    const { handling, id, streamId } = await aCatalog();
    await handleCommand(handling, {
      streamId,
      decider: portalObjectDecider,
      command: rename(id, 'B'),
      metadata,
    });
    const problem = await answerTo(
      handleCommand(handling, {
        streamId,
        decider: portalObjectDecider,
        expectedRevision: 0n,
        command: rename(id, 'C'),
        metadata,
      }),
    );
    expect(problem).toMatchObject({ status: 412, code: 'STALE_REVISION' });
    expect(problem.message).toBe('the object is at revision 1, not 0; read it again');
  });

  it("answers the decider's own refusals by their codes", async () => {
    const { handling, id } = await aCatalog();
    const again = await answerTo(
      handleCommand(handling, {
        streamId: streamIdOf('catalog', id),
        decider: portalObjectDecider,
        command: createCatalog(id),
        metadata,
      }),
    );
    expect(again).toMatchObject({ status: 409, code: 'ALREADY_EXISTS' });
    const missing = randomUUID();
    const gone = await answerTo(
      handleCommand(handling, {
        streamId: streamIdOf('catalog', missing),
        decider: portalObjectDecider,
        command: rename(missing, 'B'),
        metadata,
      }),
    );
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('answers 409 with Retry-After and no internals once every attempt lost to other writers', async () => {
    const { store, handling, id, streamId } = await aCatalog(3);
    let title = 0;
    const problem = await answerTo(
      handleCommand(handling, {
        streamId,
        decider: portalObjectDecider,
        metadata,
        command: async (stream) => {
          // Another writer renames the catalog after every read.
          title += 1;
          const [event] = portalObjectDecider.decide(rename(id, `rival ${title}`), stream.state);
          if (!event) throw new Error('the rival changed nothing');
          await store.append(streamId, [{ id: randomUUID(), ...event, metadata }], {
            expectedRevision: stream.revision ?? 'no_stream',
          });
          return rename(id, 'mine');
        },
      }),
    );
    expect(title).toBe(3);
    expect(problem).toMatchObject({
      status: 409,
      code: 'CONCURRENCY_CONFLICT',
      headers: { 'Retry-After': '1' },
    });
    expect(problem.message).not.toContain(streamId);
    expect(problem.message).not.toMatch(/revision/);
  });
});
