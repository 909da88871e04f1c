/**
 * `npm run admin -- <command>`: the operator console of the service (docs/admin-cli.md). It talks to
 * PostgreSQL (read models, the projector's tables, the event store) and Redis (the upload queue)
 * directly, with the apps' own code: the projector's dead-letter and rebuild paths, the worker's
 * requeue, the command handler for organizations, users and webhooks. `--help` lists the commands
 * and the exit codes.
 */
import { createLogger, loadConfig } from '@portal/platform';
import { loadProjectorConfig } from '../../apps/projector/src/projector-config.js';
import type { AdminContext } from './cli/command.js';
import { failureOf } from './cli/failure.js';
import { helpText } from './cli/help.js';
import { operatorName } from './cli/operator.js';
import { parseInvocation } from './cli/parse.js';
import { AdminResources } from './cli/resources.js';
import { adminCommands } from './commands/index.js';

async function main(argv: readonly string[]): Promise<number> {
  let json = argv.includes('--json');
  let resources: AdminResources | null = null;
  try {
    const invocation = parseInvocation(adminCommands, argv);
    json = invocation.json;
    if (invocation.kind === 'help') {
      process.stdout.write(helpText(adminCommands, invocation.words));
      // Asked for, it is an answer; shown because the command line named no command, a usage error.
      return invocation.asked ? 0 : 2;
    }
    // The apps' log lines (a rebuild's, say) would bury the answer: warnings only, on stderr.
    const log = createLogger({
      name: 'admin',
      level: process.env.ADMIN_LOG_LEVEL ?? 'warn',
      destination: process.stderr,
    });
    resources = new AdminResources(loadConfig(), loadProjectorConfig(), log);
    const context: AdminContext = {
      resources,
      operator: operatorName(),
      progress: process.stderr,
      now: () => new Date(),
    };
    const result = await invocation.command.run(context, invocation.input);
    process.stdout.write(json ? `${JSON.stringify(result.json, null, 2)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    const failure = failureOf(error);
    process.stderr.write(`admin: ${failure.message}\n`);
    if (json) {
      const body = { error: { code: failure.code, message: failure.message, exitCode: failure.exitCode } };
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    }
    return failure.exitCode;
  } finally {
    await resources?.close();
  }
}

// Exits explicitly: a Redis client or a pool timer must not keep a finished command waiting.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
