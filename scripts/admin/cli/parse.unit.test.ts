import { describe, expect, it } from 'vitest';
import { defineCommand, type AdminCommand } from './command.js';
import { AdminFailure } from './failure.js';
import { parseInvocation } from './parse.js';

const command = (path: string[], positionals: string[] = [], options: AdminCommand['options'] = {}) =>
  defineCommand({
    path,
    positionals,
    options,
    summary: path.join(' '),
    details: '',
    run: () => Promise.resolve({ json: null, text: '' }),
  });

const commands = [
  command(['status']),
  command(['dead-letters', 'list'], [], { state: { type: 'string', description: 'state' } }),
  command(['dead-letters', 'skip'], ['id'], { reason: { type: 'string', description: 'why' } }),
];

function failure(argv: string[]): AdminFailure {
  try {
    parseInvocation(commands, argv);
  } catch (error) {
    if (error instanceof AdminFailure) return error;
    throw error;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('the console command line', () => {
  it('finds the command, its arguments and options, with --json anywhere', () => {
    expect(
      parseInvocation(commands, ['--json', 'dead-letters', 'skip', '7', '--reason', 'bad import']),
    ).toMatchObject({
      kind: 'run',
      command: { path: ['dead-letters', 'skip'] },
      input: { args: { id: '7' }, options: { reason: 'bad import' } },
      json: true,
    });
    expect(parseInvocation(commands, ['status'])).toMatchObject({ kind: 'run', json: false });
  });

  it('answers help for everything, a group, or one command', () => {
    expect(parseInvocation(commands, ['--help'])).toMatchObject({ kind: 'help', words: [], asked: true });
    expect(parseInvocation(commands, [])).toMatchObject({ kind: 'help', words: [], asked: false });
    expect(parseInvocation(commands, ['dead-letters'])).toMatchObject({
      kind: 'help',
      words: ['dead-letters'],
    });
    expect(parseInvocation(commands, ['dead-letters', 'skip', '--help'])).toMatchObject({
      kind: 'help',
      words: ['dead-letters', 'skip'],
      asked: true,
    });
  });

  it('refuses what it cannot run, saying what is wrong, as a usage failure (exit 2)', () => {
    const cases: [string[], string][] = [
      [['nope'], 'unknown command "nope"; see --help'],
      [['dead-letters', 'nope'], 'unknown command "dead-letters nope"; see dead-letters --help'],
      [['dead-letters', 'skip'], 'dead-letters skip: missing <id>; see --help'],
      [['dead-letters', 'skip', '1', '2'], 'dead-letters skip: unexpected argument "2"; see --help'],
      [['status', '--verbose'], "status: Unknown option '--verbose'; see --help"],
    ];
    for (const [argv, message] of cases) {
      expect(failure(argv)).toMatchObject({ exitCode: 2, code: 'USAGE', message });
    }
  });
});
