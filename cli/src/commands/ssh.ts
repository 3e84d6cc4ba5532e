import path from 'node:path';
import { parseCommand } from '../args.js';
import { ensureConfigDir } from '../config.js';
import { findContainer } from '../container-ref.js';
import type { CliContext } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import {
  connectionOptions,
  destination,
  findProgram,
  hasOwnKeys,
  KEY_PROBE,
  PASSWORD_ONLY,
  type SshTarget,
  scpArgument,
  scpOperands,
  shellLine,
  sshTarget,
} from '../ssh-command.js';

const CONNECT_OPTIONS = {
  identity: { type: 'string', short: 'i' },
  verbose: { type: 'boolean', short: 'v' },
} as const;

/** gpucloud ssh <name> [-- args]: the user's own ssh client, as root in the container. */
export async function sshCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals, rest } = parseCommand('ssh', args, CONNECT_OPTIONS, ctx.msg);
  const [ref, ...command] = positionals;
  if (!ref) throw new UsageError(ctx.msg.missingArgument('<name>'), 'ssh');
  const ssh = requireProgram(ctx, 'ssh');
  const target = sshTarget(await findContainer(ctx.api(), ref, ctx.msg), ctx.msg);
  const options = connection(ctx, target, '-p', values.identity);
  return connect(ctx, target, {
    program: ssh,
    args: [...options, destination(target), ...command, ...rest],
    verbose: values.verbose === true,
    identity: values.identity,
  });
}

/** gpucloud scp [-r] <from>... <to>, one side being NAME:/path. */
export async function scpCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals, rest } = parseCommand(
    'scp',
    args,
    { ...CONNECT_OPTIONS, recursive: { type: 'boolean', short: 'r' } },
    ctx.msg,
  );
  const operands = scpOperands([...positionals, ...rest], ctx.msg);
  const scp = requireProgram(ctx, 'scp');
  const target = sshTarget(await findContainer(ctx.api(), operands.container, ctx.msg), ctx.msg);
  const options = connection(ctx, target, '-P', values.identity);
  return connect(ctx, target, {
    program: scp,
    args: [
      ...(values.recursive ? ['-r'] : []),
      ...options,
      ...operands.paths.map((p) => scpArgument(p, target)),
    ],
    verbose: values.verbose === true,
    identity: values.identity,
  });
}

function requireProgram(ctx: CliContext, name: string): string {
  const found = findProgram(name, ctx.env);
  if (!found) throw new CliError(ctx.msg.programMissing(name));
  return found;
}

function connection(ctx: CliContext, target: SshTarget, portFlag: '-p' | '-P', identity?: string): string[] {
  ensureConfigDir(ctx.configDir);
  return connectionOptions(target, {
    portFlag,
    knownHosts: path.join(ctx.configDir, 'known_hosts'),
    identity,
  });
}

/**
 * The user's key when the container takes it (a quiet probe with keys only), else the
 * container's password: through sshpass where installed, otherwise printed for the prompt.
 */
async function connect(
  ctx: CliContext,
  target: SshTarget,
  run: { program: string; args: string[]; verbose: boolean; identity?: string },
): Promise<number> {
  const exec = (command: string, args: string[], env = ctx.env, quiet = false) => {
    if (run.verbose) ctx.stderr.write(`+ ${shellLine(command, args)}\n`);
    return ctx.runProgram({ command, args, env, quiet });
  };
  if (hasOwnKeys(ctx.env, ctx.sshDir, run.identity)) {
    const ssh = requireProgram(ctx, 'ssh');
    const probe = [...connection(ctx, target, '-p', run.identity), ...KEY_PROBE, destination(target), 'true'];
    if ((await exec(ssh, probe, ctx.env, true)) === 0) return exec(run.program, run.args);
  }
  const sshpass = findProgram('sshpass', ctx.env);
  const withPassword = [...PASSWORD_ONLY, ...run.args];
  if (sshpass) {
    return exec(sshpass, ['-e', run.program, ...withPassword], { ...ctx.env, SSHPASS: target.password });
  }
  ctx.stderr.write(`${ctx.msg.sshPassword(target.password)}\n`);
  return exec(run.program, withPassword);
}
