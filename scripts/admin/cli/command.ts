import type { AdminResources } from './resources.js';

/** An option of a command besides the ones every command takes (`--json`, `--help`). */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** What the value is, for the usage line: `--reason <text>`. */
  readonly value?: string;
  readonly description: string;
}

export interface AdminCommand {
  /** The words that name it: `['dead-letters', 'retry']`. */
  readonly path: readonly string[];
  /** Its positional arguments, each required, in order: `['id']`. */
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** One line for the command list. */
  readonly summary: string;
  /** More lines for `--help`: what it does, what it changes, what to expect. */
  readonly details: string;
  run(context: AdminContext, input: CommandInput): Promise<CommandResult>;
}

export interface CommandInput {
  /** Positional arguments by name. */
  readonly args: Readonly<Record<string, string>>;
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
}

/** What a command answers: a document for `--json`, and text for a person. */
export interface CommandResult {
  readonly json: unknown;
  readonly text: string;
}

export interface AdminContext {
  readonly resources: AdminResources;
  /** Who runs the console (`operatorName`): recorded with every change it makes. */
  readonly operator: string;
  /** Where progress goes (stderr), never mixed with the answer. */
  readonly progress: NodeJS.WriteStream;
  readonly now: () => Date;
}

export function defineCommand(command: AdminCommand): AdminCommand {
  return command;
}

/** A string option the parser has already checked is a string, or `undefined`. */
export function stringOption(input: CommandInput, name: string): string | undefined {
  const value = input.options[name];
  return typeof value === 'string' ? value : undefined;
}

export function arg(input: CommandInput, name: string): string {
  return input.args[name] ?? '';
}
