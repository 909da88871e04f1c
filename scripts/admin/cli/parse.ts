import { parseArgs } from 'node:util';
import type { AdminCommand, CommandInput } from './command.js';
import { usageFailure } from './failure.js';

export type Invocation =
  | {
      readonly kind: 'run';
      readonly command: AdminCommand;
      readonly input: CommandInput;
      readonly json: boolean;
    }
  /** `--help`, or a group without its subcommand: help for what was named (everything when nothing was). */
  | {
      readonly kind: 'help';
      readonly words: readonly string[];
      readonly json: boolean;
      readonly asked: boolean;
    };

function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-')) break;
    words.push(word);
  }
  return words;
}

/** The command whose name is the longest prefix of the words. */
function findCommand(commands: readonly AdminCommand[], words: readonly string[]): AdminCommand | undefined {
  return commands
    .filter((command) => command.path.every((word, index) => words[index] === word))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/**
 * Reads `argv` (after `npm run admin --`): which command, its arguments and options, strictly: an
 * unknown option, a missing or extra argument is a usage failure naming what to fix.
 */
export function parseInvocation(commands: readonly AdminCommand[], given: readonly string[]): Invocation {
  // `--json` may come anywhere, even before the command's name.
  const argv = given.filter((word) => word !== '--json');
  const json = argv.length !== given.length;
  const words = commandWords(argv);
  const asked = argv.includes('--help') || argv.includes('-h');
  const command = findCommand(commands, words);
  if (asked || !command) {
    const known = commands.some((candidate) => candidate.path[0] === words[0]);
    if (!asked && words.length > 0 && !command) {
      if (!known) throw usageFailure(`unknown command "${words.join(' ')}"; see --help`);
      if (words.length > 1)
        throw usageFailure(`unknown command "${words.join(' ')}"; see ${words[0]} --help`);
    }
    return { kind: 'help', words: command?.path ?? words.slice(0, 1), json, asked };
  }
  const rest = argv.slice(command.path.length);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      strict: true,
      options: {
        ...Object.fromEntries(
          Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type }]),
        ),
      },
    });
  } catch (error) {
    // node:util goes on about positionals that start with '-': its first sentence says what is wrong.
    const message = (error instanceof Error ? error.message : String(error)).split('. ')[0] ?? '';
    throw usageFailure(`${command.path.join(' ')}: ${message}; see --help`);
  }
  const { positionals } = parsed;
  const missing = command.positionals.slice(positionals.length);
  if (missing.length > 0) {
    throw usageFailure(`${command.path.join(' ')}: missing <${missing.join('>, <')}>; see --help`);
  }
  if (positionals.length > command.positionals.length) {
    const extra = positionals.slice(command.positionals.length);
    throw usageFailure(`${command.path.join(' ')}: unexpected argument "${extra.join(' ')}"; see --help`);
  }
  const args = Object.fromEntries(command.positionals.map((name, index) => [name, positionals[index] ?? '']));
  const options = parsed.values as Record<string, string | boolean | undefined>;
  return { kind: 'run', command, input: { args, options }, json };
}
