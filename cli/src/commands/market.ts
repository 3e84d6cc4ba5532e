import type {
  Balance,
  CloudProductList,
  Framework,
  FrameworkVersion,
  UserImageList,
} from '@gpucloud/control-plane/api';
import { choiceOption, intOption, parseCommand } from '../args.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { statusLabel } from '../i18n.js';
import { formatBytes, formatYuan, renderJson, renderTable } from '../output.js';

/** gpucloud products: the market (GET /api/cloud-products with the console's filters). */
export async function productsCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'products',
    args,
    {
      region: { type: 'string' },
      'gpu-type': { type: 'string', multiple: true },
      gpus: { type: 'string' },
      system: { type: 'string' },
      status: { type: 'string' },
    },
    ctx.msg,
  );
  if (positionals.length > 0) throw new UsageError(ctx.msg.tooManyArguments, 'products');
  const gpuCount =
    values.gpus === undefined
      ? undefined
      : intOption('products', '--gpus', values.gpus, 1, { min: 1, max: 8 }, ctx.msg);
  const { items } = await ctx.api().get<CloudProductList>('/api/cloud-products', {
    region: values.region,
    gpuTypes: values['gpu-type'],
    gpuCount,
    systemType: choiceOption('products', '--system', values.system, ['ubuntu', 'windows'] as const, ctx.msg),
    status: choiceOption('products', '--status', values.status, ['available', 'offline'] as const, ctx.msg),
  });
  if (ctx.json) {
    ctx.stdout.write(renderJson(items));
    return 0;
  }
  if (items.length === 0) {
    ctx.stdout.write(`${ctx.msg.noProducts}\n`);
    return 0;
  }
  const h = ctx.msg.headers;
  ctx.stdout.write(
    renderTable(
      [h.id, h.name, h.region, h.gpuType, h.available, h.price, h.cpu, h.memory, h.disk, h.status],
      items.map((p) => [
        String(p.id),
        p.name,
        p.region,
        p.gpu_type,
        `${p.gpu_available}/${p.gpu_total}`,
        formatYuan(p.price),
        p.cpu_cores > 0 ? `${p.cpu_cores}` : p.cpu_model || '-',
        p.memory,
        p.disk_size,
        statusLabel(ctx.msg, p.status),
      ]),
    ),
  );
  return 0;
}

/** A framework with its versions (GET /api/frameworks, then …/{id}/versions). */
export type FrameworkWithVersions = Framework & { versions: FrameworkVersion[] };

/** gpucloud images: the catalogue's framework images and the caller's saved ones. */
export async function imagesCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    'images',
    args,
    { mine: { type: 'boolean' }, public: { type: 'boolean' } },
    ctx.msg,
  );
  if (positionals.length > 0) throw new UsageError(ctx.msg.tooManyArguments, 'images');
  const api = ctx.api();
  const showPublic = values.mine !== true || values.public === true;
  const showMine = values.public !== true || values.mine === true;
  const [frameworks, mine] = await Promise.all([
    showPublic
      ? api.get<Framework[]>('/api/frameworks').then((list) =>
          Promise.all(
            list.map(async (f) => ({
              ...f,
              versions: await api.get<FrameworkVersion[]>(`/api/frameworks/${f.id}/versions`),
            })),
          ),
        )
      : undefined,
    showMine ? api.get<UserImageList>('/api/images/mine') : undefined,
  ]);
  if (ctx.json) {
    ctx.stdout.write(renderJson({ ...(frameworks ? { frameworks } : {}), ...(mine ? { mine } : {}) }));
    return 0;
  }
  const h = ctx.msg.headers;
  if (frameworks) {
    ctx.stdout.write(`${ctx.msg.publicImages}\n`);
    ctx.stdout.write(
      renderTable(
        [h.framework, h.version, h.id, h.image, h.cuda],
        frameworks.flatMap((f) =>
          f.versions.map((v) => [f.name, v.version, String(v.id), v.image, v.cuda_version || '-']),
        ),
      ),
    );
  }
  if (mine) {
    if (frameworks) ctx.stdout.write('\n');
    if (mine.images.length === 0) ctx.stdout.write(`${ctx.msg.noImages}\n`);
    else {
      ctx.stdout.write(`${ctx.msg.myImages}\n`);
      ctx.stdout.write(
        renderTable(
          [h.id, h.name, h.tag, h.status, h.size, h.created],
          mine.images.map((i) => [
            String(i.id),
            i.name,
            i.tag,
            statusLabel(ctx.msg, i.status, i.status === 'saving' ? i.progress : null),
            i.size_bytes > 0 ? formatBytes(i.size_bytes) : '-',
            i.created_at,
          ]),
        ),
      );
    }
  }
  return 0;
}

/** gpucloud balance. */
export async function balanceCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { positionals } = parseCommand('balance', args, {}, ctx.msg);
  if (positionals.length > 0) throw new UsageError(ctx.msg.tooManyArguments, 'balance');
  const balance = await ctx.api().get<Balance>('/api/billing/balance');
  if (ctx.json) ctx.stdout.write(renderJson(balance));
  else
    ctx.stdout.write(
      `${ctx.msg.balance(formatYuan(balance.balance))}\n${ctx.msg.alertThreshold(formatYuan(balance.alert_threshold))}\n`,
    );
  return 0;
}
