import type { Container, ContainerList } from '@gpucloud/control-plane/api';
import { parseCommand } from '../args.js';
import { findContainer } from '../container-ref.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { statusLabel } from '../i18n.js';
import { formatYuan, renderJson, renderTable } from '../output.js';
import { confirm } from '../prompt.js';

/** gpucloud ls: the caller's containers (--json: the API's items). */
export async function lsCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { positionals } = parseCommand('ls', args, {}, ctx.msg);
  if (positionals.length > 0) throw new UsageError(ctx.msg.tooManyArguments, 'ls');
  const { items } = await ctx.api().get<ContainerList>('/api/containers');
  if (ctx.json) {
    ctx.stdout.write(renderJson(items));
    return 0;
  }
  if (items.length === 0) {
    ctx.stdout.write(`${ctx.msg.noContainers}\n`);
    return 0;
  }
  const h = ctx.msg.headers;
  ctx.stdout.write(
    renderTable(
      [h.id, h.name, h.status, h.gpus, h.region, h.ssh, h.cost],
      items.map((c) => [
        c.container_id,
        c.name,
        statusLabel(ctx.msg, c.status, c.pull_progress),
        `${c.gpu_type} ×${c.no_gpu ? 0 : c.gpu_count}`,
        c.region,
        sshCommandLine(c),
        formatYuan(c.total_cost),
      ]),
    ),
  );
  return 0;
}

/** The ssh command the console shows, or '-' without a port. */
export function sshCommandLine(c: Pick<Container, 'ssh_port' | 'ssh_server'>): string {
  return c.ssh_port && c.ssh_server ? `ssh -p ${c.ssh_port} root@${c.ssh_server}` : '-';
}

function names(ctx: CliContext, command: string, positionals: string[]): string[] {
  if (positionals.length === 0) throw new UsageError(ctx.msg.missingArgument('<name>'), command);
  return positionals;
}

/** gpucloud start <name>...: --json prints the started containers. */
export async function startCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('start', args, { 'no-gpu': { type: 'boolean' } }, ctx.msg);
  const done: Container[] = [];
  for (const ref of names(ctx, 'start', positionals)) {
    const c = await findContainer(ctx.api(), ref, ctx.msg);
    const started = await ctx
      .api()
      .post<Container>(`/api/containers/${c.container_id}/start`, { no_gpu: values['no-gpu'] === true });
    done.push(started);
    if (!ctx.json) ctx.stdout.write(`${ctx.msg.started(started.name)}\n`);
  }
  if (ctx.json) ctx.stdout.write(renderJson(done));
  return 0;
}

/** gpucloud stop <name>...: --json prints the stopped containers. */
export async function stopCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { positionals } = parseCommand('stop', args, {}, ctx.msg);
  const done: Container[] = [];
  for (const ref of names(ctx, 'stop', positionals)) {
    const c = await findContainer(ctx.api(), ref, ctx.msg);
    const stopped = await ctx.api().post<Container>(`/api/containers/${c.container_id}/stop`);
    done.push(stopped);
    if (!ctx.json) ctx.stdout.write(`${ctx.msg.stopped(stopped.name)}\n`);
  }
  if (ctx.json) ctx.stdout.write(renderJson(done));
  return 0;
}

/** gpucloud rm <name>...: asks first (--yes where no one can be asked). */
export async function rmCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('rm', args, { yes: { type: 'boolean', short: 'y' } }, ctx.msg);
  const targets: Container[] = [];
  for (const ref of names(ctx, 'rm', positionals)) targets.push(await findContainer(ctx.api(), ref, ctx.msg));
  await confirm(
    ctx,
    ctx.msg.confirmRemove(targets.map((c) => `${c.name} (${c.container_id})`).join(', ')),
    values.yes,
  );
  const done: { container_id: string; name: string; deleted: true }[] = [];
  for (const c of targets) {
    await ctx.api().delete(`/api/containers/${c.container_id}`);
    done.push({ container_id: c.container_id, name: c.name, deleted: true });
    if (!ctx.json) ctx.stdout.write(`${ctx.msg.removed(c.name)}\n`);
  }
  if (ctx.json) ctx.stdout.write(renderJson(done));
  return 0;
}
