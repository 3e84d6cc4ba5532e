import { NetworkError, VERSION } from './api-client.js';
import { COMMON_OPTIONS } from './args.js';
import { lsCommand, rmCommand, startCommand, stopCommand } from './commands/containers.js';
import { createCommand } from './commands/create.js';
import { loginCommand } from './commands/login.js';
import { logsCommand } from './commands/logs.js';
import { balanceCommand, imagesCommand, productsCommand } from './commands/market.js';
import { saveCommand } from './commands/save.js';
import { scpCommand, sshCommand } from './commands/ssh.js';
import { type CliContext, type CliDeps, createContext } from './context.js';
import { ApiError, CliError, UsageError } from './errors.js';
import { chooseLanguage, MESSAGES } from './i18n.js';

type Command = (ctx: CliContext, args: string[]) => Promise<number>;

export const COMMANDS: Record<string, Command> = {
  login: loginCommand,
  products: productsCommand,
  images: imagesCommand,
  create: createCommand,
  ls: lsCommand,
  start: startCommand,
  stop: stopCommand,
  rm: rmCommand,
  logs: logsCommand,
  ssh: sshCommand,
  scp: scpCommand,
  save: saveCommand,
  balance: balanceCommand,
};

/** Exit statuses: 0 done, 1 refused or failed (the API's error, no such container …), 2 bad usage. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** The whole command line: what to do, and the exit status (ssh and scp pass theirs on). */
export async function run(argv: string[], deps: CliDeps): Promise<number> {
  const lang = chooseLanguage(deps.env);
  const msg = MESSAGES[lang];
  const [name, ...args] = argv;
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  const json = own.includes('--json');
  const ctx = createContext(deps, lang, msg, json);

  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    deps.stdout.write(`${(topic && msg.commandHelp[topic]) || msg.help.trimEnd()}\n`);
    return 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    deps.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) return report(ctx, new UsageError(msg.unknownCommand(name)));
  if (own.some((a) => a === '--help' || a === `-${COMMON_OPTIONS.help.short}`)) {
    deps.stdout.write(`${msg.commandHelp[name]}\n`);
    return 0;
  }
  try {
    return await command(ctx, args);
  } catch (err) {
    return report(ctx, err);
  }
}

/**
 * An error on stderr: the API's detail (Chinese, as the console shows it) and code, or the CLI's
 * own message; with --json one JSON object `{error: {detail, code, status}}` for scripts.
 */
function report(ctx: CliContext, err: unknown): number {
  const { msg } = ctx;
  const exit = err instanceof UsageError ? EXIT_USAGE : EXIT_FAILURE;
  if (ctx.json) {
    const error =
      err instanceof ApiError
        ? { detail: err.detail, code: err.code ?? null, status: err.status }
        : {
            detail: (err as Error).message,
            code: err instanceof UsageError ? 'USAGE' : err instanceof NetworkError ? 'UNREACHABLE' : null,
            status: null,
          };
    ctx.stderr.write(`${JSON.stringify({ error })}\n`);
    return exit;
  }
  if (err instanceof ApiError) {
    ctx.stderr.write(`gpucloud: ${msg.error}: ${err.detail}${err.code ? ` (${err.code})` : ''}\n`);
  } else if (err instanceof UsageError) {
    ctx.stderr.write(`gpucloud: ${msg.error}: ${err.message}\n`);
    const usage = err.command ? msg.commandHelp[err.command]?.split('\n\n')[0] : undefined;
    ctx.stderr.write(`${usage ?? msg.usageHint}\n`);
  } else if (err instanceof CliError) {
    ctx.stderr.write(`gpucloud: ${msg.error}: ${err.message}\n`);
  } else {
    // Not one of ours: a bug, with its stack for the report.
    ctx.stderr.write(`gpucloud: ${msg.error}: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  return exit;
}
