import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createEventStore } from '@portal/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJson, runAdmin, TEST_OPERATOR } from './support/admin-cli.js';
import { settleCommandAt } from './support/command-answer.js';
import { callAt } from './support/http.js';
import { startStack, type Stack } from './support/stack.js';
import { signUpUserAt, type StackUser } from './support/stack-user.js';

/**
 * Dead letters made on purpose, then listed, retried and skipped with `npm run admin`, and a rebuild
 * with its progress bar, against a stack of its own (the projector halts here: it exits 1 on a poison
 * event, and the test restarts it as a supervisor would).
 */

interface StatusAnswer {
  projection: {
    lagEvents: number;
    lagSeconds: number;
    halted: boolean;
    leader: { pid: number } | null;
    deadLetters: { open: number; total: number };
    checkpoint: string;
    head: string;
  };
}

interface Letter {
  id: string;
  state: string;
  type: string;
  streamId: string;
  error: string;
  resolution: { action: string; reason: string | null; operator: string } | null;
}

interface Decision {
  id: string;
  action: string;
  operator: string;
  checkpoint: string;
  projectorRunning: boolean;
}

let stack: Stack;
let pool: pg.Pool;
/** The owner whose organization got the poison event, and the user whose sign-up was retried. */
let owner: StackUser;
let mallory: StackUser;

beforeAll(async () => {
  stack = await startStack({ PROJECTOR_RETRY_DELAYS_MS: '10' });
  pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
});

afterAll(async () => {
  await pool.end();
  await stack.stop();
});

async function status(): Promise<StatusAnswer['projection']> {
  return (await adminJson<StatusAnswer>(stack, ['status'])).projection;
}

async function untilTrue(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Restarts the halted projector and waits until it leads and has caught up. */
async function restartProjector(): Promise<void> {
  await stack.restart('projector');
  await untilTrue('the projector to catch up', async () => {
    const projection = await status();
    return projection.leader !== null && projection.lagEvents === 0;
  });
}

async function openLetters(): Promise<Letter[]> {
  return (await adminJson<{ items: Letter[] }>(stack, ['dead-letters', 'list', '--state', 'open'])).items;
}

async function membersOf(user: StackUser): Promise<{ role: string }[]> {
  const listed = await callAt<{ items: { role: string }[] }>(
    stack.baseUrl,
    'GET',
    '/api/auth/organization/list-members',
    { headers: user.headers },
  );
  expect(listed.status).toBe(200);
  return listed.body.items;
}

describe('a dead letter nothing can apply: listed, retried in vain, skipped with a reason', () => {
  let letter: Letter;

  it('halts the projection on an event the read model refuses, and status says so', async () => {
    owner = await signUpUserAt(stack.baseUrl, 'Owner');
    // What a faulty writer could append: a member with a role no read model knows.
    const store = await createEventStore({ databasePool: pool });
    const streamId = `org-${owner.orgId}`;
    await store.append(
      streamId,
      [
        {
          id: randomUUID(),
          type: 'MemberAdded',
          data: { orgId: owner.orgId, userId: randomUUID(), role: 'superuser', invitationId: null },
          metadata: {
            actorId: null,
            orgId: owner.orgId,
            correlationId: randomUUID(),
            causationId: null,
            requestId: null,
            occurredAt: new Date().toISOString(),
            schemaVersion: 2,
          },
        },
      ],
      { expectedRevision: (await store.streamRevision(streamId)) ?? 'no_stream' },
    );
    expect(await stack.exited('projector')).toBe(1);

    const projection = await status();
    expect(projection).toMatchObject({ halted: true, leader: null, deadLetters: { open: 1, total: 1 } });
    expect(projection.lagEvents).toBeGreaterThanOrEqual(1);
    expect(projection.lagSeconds).toBeGreaterThan(0);
    const text = await runAdmin(stack, ['status']);
    expect(text.stdout).toContain('halted        yes: stopped before a dead letter');
    expect(text.stdout).toContain('leader        none');

    const letters = await openLetters();
    expect(letters).toHaveLength(1);
    letter = letters[0] as Letter;
    expect(letter).toMatchObject({ state: 'open', type: 'MemberAdded', streamId, resolution: null });
    expect(letter.error).toMatch(/^identity: .*check constraint/);
    const table = await runAdmin(stack, ['dead-letters', 'list']);
    expect(table.stdout).toMatch(new RegExp(`^${letter.id} +open +MemberAdded +${streamId}@\\d+ `, 'm'));
  });

  it('a retry fails again while nothing is fixed: exit 1 with the error, nothing recorded', async () => {
    const retried = await runAdmin(stack, ['dead-letters', 'retry', letter.id]);
    expect(retried.code).toBe(1);
    expect(retried.stderr).toMatch(/applying event .* failed again: identity: .*check constraint/);
    expect(await openLetters()).toEqual([expect.objectContaining({ id: letter.id, resolution: null })]);
  });

  it('a skip needs a reason; with one, the projection passes over the event and the decision stays on record', async () => {
    const noReason = await runAdmin(stack, ['dead-letters', 'skip', letter.id]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason "<why>" is required');
    expect((await runAdmin(stack, ['dead-letters', 'skip', letter.id, '--reason', '   '])).code).toBe(2);

    const reason = 'role superuser does not exist: appended by a faulty import';
    const skipped = await adminJson<Decision>(stack, ['dead-letters', 'skip', letter.id, '--reason', reason]);
    expect(skipped).toMatchObject({
      id: letter.id,
      action: 'skipped',
      operator: TEST_OPERATOR,
      projectorRunning: false,
    });
    const projection = await status();
    expect(projection).toMatchObject({ halted: false, deadLetters: { open: 0, total: 1 } });
    expect(projection.checkpoint).toBe(skipped.checkpoint);

    const onRecord = await adminJson<{ items: Letter[] }>(stack, [
      'dead-letters',
      'list',
      '--state',
      'skipped',
    ]);
    expect(onRecord.items).toEqual([
      expect.objectContaining({
        id: letter.id,
        state: 'skipped',
        resolution: expect.objectContaining({
          action: 'skipped',
          reason,
          operator: TEST_OPERATOR,
        }) as unknown,
      }),
    ]);
    const again = await runAdmin(stack, ['dead-letters', 'skip', letter.id, '--reason', 'twice']);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain(`already skipped by ${TEST_OPERATOR}`);
    expect((await runAdmin(stack, ['dead-letters', 'retry', letter.id])).code).toBe(4);
    expect((await runAdmin(stack, ['dead-letters', 'retry', '987654'])).code).toBe(3);
  });

  it('the restarted projector goes on after it; the skipped member never shows', async () => {
    await restartProjector();
    const created = await callAt<{ portalItemId: string }>(
      stack.baseUrl,
      'POST',
      '/api/v1/portal/catalogs/create',
      {
        headers: owner.headers,
        body: { title: 'After the skip', description: 'projected', links: [] },
      },
    );
    await settleCommandAt(stack.baseUrl, created, 201, 'create catalog');
    expect(
      (
        await callAt(stack.baseUrl, 'GET', `/api/v1/portal/items/${created.body.portalItemId}`, {
          headers: owner.headers,
        })
      ).status,
    ).toBe(200);
    expect((await membersOf(owner)).map((member) => member.role)).toEqual(['owner']);
  });
});

describe('a dead letter a fix makes applicable: retried after the fix', () => {
  const name = 'Mallory Poison';

  it('halts on a sign-up the read model refuses, fails a retry, and applies it once fixed', async () => {
    // A mistaken constraint on the read model (a DBA's, say) that the sign-up's event violates.
    await pool.query(
      `ALTER TABLE read.users ADD CONSTRAINT admin_cli_poison CHECK (name <> '${name}') NOT VALID`,
    );
    const email = `mallory-${randomUUID()}@example.org`;
    const password = `pw-${randomUUID()}`;
    const signedUp = await callAt(stack.baseUrl, 'POST', '/api/auth/sign-up/email', {
      body: { email, password, name },
    });
    // Recorded, but never projected while the projection stands still: the API answers 202.
    expect(signedUp.status).toBe(202);
    expect(await stack.exited('projector')).toBe(1);
    const [letter] = await openLetters();
    expect(letter).toMatchObject({ type: 'UserRegistered', state: 'open' });
    const id = letter?.id ?? '';

    const stillBroken = await runAdmin(stack, ['dead-letters', 'retry', id, '--json']);
    expect(stillBroken.code).toBe(1);
    expect(JSON.parse(stillBroken.stdout)).toMatchObject({ error: { code: 'FAILED', exitCode: 1 } });

    await pool.query('ALTER TABLE read.users DROP CONSTRAINT admin_cli_poison');
    const retried = await adminJson<Decision>(stack, ['dead-letters', 'retry', id]);
    expect(retried).toMatchObject({
      id,
      action: 'applied',
      operator: TEST_OPERATOR,
      projectorRunning: false,
    });
    expect(await status()).toMatchObject({ halted: false, deadLetters: { open: 0 } });
    const text = await runAdmin(stack, ['dead-letters', 'list', '--state', 'applied']);
    expect(text.stdout).toMatch(
      new RegExp(`^${id} +applied +UserRegistered .* applied by ${TEST_OPERATOR}`, 'm'),
    );

    await restartProjector();
    const signedIn = await callAt<{ user: { name: string } }>(
      stack.baseUrl,
      'POST',
      '/api/auth/sign-in/email',
      {
        body: { email, password },
      },
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.name).toBe(name);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((header) => header.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('session='));
    mallory = { userId: '', email, password, orgId: '', headers: { cookie: cookie ?? '' } };
    expect((await membersOf(mallory)).map((member) => member.role)).toEqual(['owner']);
  });
});

describe('rebuild', () => {
  it('replays everything with a progress bar, passes over the skipped event and swaps in', async () => {
    const rebuilt = await runAdmin(stack, ['rebuild', '--json']);
    expect(rebuilt.code).toBe(0);
    const answer = JSON.parse(rebuilt.stdout) as { schema: string; events: number; position: string };
    expect(answer.schema).toBe('read');
    expect(answer.events).toBeGreaterThan(0);
    // The progress bar on stderr: done against the estimated total, rate, time left.
    expect(rebuilt.stderr).toMatch(/\[#+-*\] +\d+\.\d% +[\d,]+\/~[\d,]+ events +[\d,]+\/s +ETA /);
    expect(rebuilt.stderr).toContain('reached the head\n');
    // Then the reader indexes and triggers, one statement after the other, each named as it begins.
    expect(rebuilt.stderr).toMatch(/\[-+\] +0\.0% +0\/\? statements .* index \w+\n/);
    expect(rebuilt.stderr).toMatch(/\[#+\] +100\.0% +(\d+)\/~\1 statements /);
    expect(rebuilt.stderr).toContain(
      'built the indexes and triggers readers need\nanalyzing the rebuilt tables\ncatching up the rest and swapping in\n',
    );

    // The live projector resubscribes from the swapped-in checkpoint and follows on.
    await untilTrue('the projection to catch up after the swap', async () => {
      const after = await status();
      return after.leader !== null && after.lagEvents === 0 && !after.halted;
    });
    // Without the operator's skip the replay would have met the poison event again and failed; the
    // retried sign-up is in the rebuilt read models, the dead letters outlive the swap.
    expect((await membersOf(mallory)).map((member) => member.role)).toEqual(['owner']);
    expect((await membersOf(owner)).map((member) => member.role)).toEqual(['owner']);
    const letters = await adminJson<{ items: Letter[] }>(stack, ['dead-letters', 'list']);
    expect(letters.items.map((item) => item.state).sort()).toEqual(['applied', 'skipped']);
    const text = await runAdmin(stack, ['rebuild']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^rebuilt schema read: \d+ events to position \d+\.\d+ in .*, swapped in$/m);
  });
});
