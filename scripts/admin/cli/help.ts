import type { AdminCommand } from './command.js';
import { EXIT_CODES } from './failure.js';

export function usageLine(command: AdminCommand): string {
  const positionals = command.positionals.map((name) => `<${name}>`);
  const options = Object.entries(command.options).map(([name, spec]) =>
    spec.type === 'boolean' ? `[--${name}]` : `[--${name} <${spec.value ?? 'value'}>]`,
  );
  return ['npm run admin --', ...command.path, ...positionals, ...options, '[--json]'].join(' ');
}

function commandList(commands: readonly AdminCommand[]): string {
  const names = commands.map((command) =>
    [...command.path, ...command.positionals.map((name) => `<${name}>`)].join(' '),
  );
  const width = Math.max(...names.map((name) => name.length));
  return commands
    .map((command, index) => `  ${(names[index] ?? '').padEnd(width)}  ${command.summary}`)
    .join('\n');
}

const exitCodeLines = [
  [EXIT_CODES.ok, 'done (or nothing was left to do)'],
  [EXIT_CODES.failed, 'tried and failed (a retried dead letter failed again, a rebuild failed)'],
  [EXIT_CODES.usage, 'wrong command line or configuration'],
  [EXIT_CODES.notFound, 'what was named does not exist'],
  [EXIT_CODES.refused, 'its state does not allow it (already resolved, not next, slug taken, …)'],
  [EXIT_CODES.unavailable, 'PostgreSQL or Redis could not be reached'],
] as const;

/** Help for everything (no words), a group (`dead-letters`) or one command. */
export function helpText(commands: readonly AdminCommand[], words: readonly string[]): string {
  const exact = commands.find(
    (command) => command.path.length === words.length && command.path.every((word, i) => words[i] === word),
  );
  if (exact) {
    const options = Object.entries(exact.options).map(
      ([name, spec]) =>
        `  --${name}${spec.type === 'string' ? ` <${spec.value ?? 'value'}>` : ''}  ${spec.description}`,
    );
    return [
      `usage: ${usageLine(exact)}`,
      '',
      exact.summary,
      '',
      exact.details,
      '',
      'options:',
      ...options,
      '  --json  answer with one JSON document on stdout (errors as {"error": {"code", "message"}})',
      '  --help  this text',
      '',
    ].join('\n');
  }
  const group = commands.filter((command) => words.length > 0 && command.path[0] === words[0]);
  if (group.length > 0) {
    return [`usage: npm run admin -- ${words[0] ?? ''} <command> [--json]`, '', commandList(group), ''].join(
      '\n',
    );
  }
  return [
    'usage: npm run admin -- <command> [arguments] [--json] [--help]',
    '',
    'The operator console of the Portal Catalog Service (docs/admin-cli.md). It reads the same',
    'configuration as the apps (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, …); PORTAL_OPERATOR names you in',
    'what it records (default: <user>@<host>).',
    '',
    'commands:',
    commandList(commands),
    '',
    'exit codes:',
    ...exitCodeLines.map(([code, meaning]) => `  ${code}  ${meaning}`),
    '',
  ].join('\n');
}
