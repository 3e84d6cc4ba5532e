import { randomUUID } from 'node:crypto';
import type {
  BillingType,
  CloudProduct,
  Container,
  ContainerStatusAnswer,
  Framework,
  FrameworkVersion,
  PurchaseAnswer,
  PurchasePayload,
  UserImage,
  UserImageList,
} from '@gpucloud/control-plane/api';
import { NetworkError } from '../api-client.js';
import { choiceOption, intOption, parseCommand } from '../args.js';
import type { CliContext } from '../context.js';
import { ApiError, CliError, UsageError } from '../errors.js';
import { statusLabel } from '../i18n.js';
import { formatYuan, renderJson } from '../output.js';
import { BILLING_TYPE_NAMES, BILLING_TYPES, totalPrice } from '../price.js';
import { progressOn } from '../progress.js';
import { confirm } from '../prompt.js';
import { sshCommandLine } from './containers.js';

/** Statuses of a container the node is still making (purchase answered, not yet running). */
const IN_PROGRESS = new Set(['creating', 'pulling', 'starting']);
/** The longest one status request waits for a change (the API allows 30 s). */
const STATUS_WAIT_SECONDS = 30;

const OPTIONS = {
  product: { type: 'string' },
  name: { type: 'string' },
  gpus: { type: 'string' },
  framework: { type: 'string' },
  version: { type: 'string' },
  image: { type: 'string' },
  billing: { type: 'string' },
  duration: { type: 'string' },
  port: { type: 'string', multiple: true },
  mount: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  expand: { type: 'boolean' },
  wait: { type: 'boolean' },
  timeout: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
} as const;

/**
 * gpucloud create: the market's purchase (POST /api/cloud-products/{id}/purchase) with the
 * fields the console's 创建实例 dialog sends, and --wait until the node has it running.
 */
export async function createCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { msg } = ctx;
  const { values, positionals } = parseCommand('create', args, OPTIONS, msg);
  if (positionals.length > 0) throw new UsageError(msg.tooManyArguments, 'create');
  if (values.product === undefined) throw new UsageError(msg.missingArgument('--product'), 'create');
  const productId = intOption('create', '--product', values.product, 0, { min: 1, max: 2 ** 31 - 1 }, msg);
  if ((values.framework === undefined) === (values.image === undefined))
    throw new UsageError(msg.frameworkOrImage, 'create');
  const billingType: BillingType =
    choiceOption('create', '--billing', values.billing, BILLING_TYPE_NAMES, msg) ?? 'hourly';
  const duration = intOption(
    'create',
    '--duration',
    values.duration,
    1,
    { min: 1, max: BILLING_TYPES[billingType].maxDuration },
    msg,
  );
  const gpuCount = intOption('create', '--gpus', values.gpus, 1, { min: 1, max: 8 }, msg);
  const ports = (values.port ?? []).map((p) =>
    intOption('create', '--port', p, 0, { min: 10000, max: 65535 }, msg),
  );
  const mounts = (values.mount ?? []).map((m) => {
    const colon = m.indexOf(':');
    if (colon <= 0 || colon === m.length - 1) throw new UsageError(msg.badMount(m), 'create');
    return { source: m.slice(0, colon), target: m.slice(colon + 1) };
  });
  const env = Object.fromEntries(
    (values.env ?? []).map((e) => {
      const eq = e.indexOf('=');
      if (eq <= 0) throw new UsageError(msg.badEnv(e), 'create');
      return [e.slice(0, eq), e.slice(eq + 1)];
    }),
  );
  const timeoutSeconds = intOption('create', '--timeout', values.timeout, 1800, { min: 1, max: 86_400 }, msg);

  const api = ctx.api();
  const product = await api.get<CloudProduct>(`/api/cloud-products/${productId}`).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) throw new CliError(msg.noSuchProduct(productId));
    throw err;
  });
  const image =
    values.image !== undefined
      ? {
          imageType: 'custom' as const,
          customImageId: (await myImage(ctx, values.image)).id,
          frame_ports: {},
        }
      : await publicImage(ctx, values.framework as string, values.version);
  const name = values.name?.trim() || defaultInstanceName();
  const payload: PurchasePayload = {
    instanceName: name,
    gpuCount,
    needExpand: values.expand === true,
    ...image,
    custom_ports: ports,
    agreeTerms: true,
    mounts,
    billing_type: billingType,
    duration,
    env,
    total_price: totalPrice({ unitPrice: product.price, gpuCount, duration, billingType }),
  };

  const what = `${name}: ${product.name} (${product.gpu_type} ×${gpuCount}, ${msg.billing[billingType]} ×${duration})`;
  await confirm(ctx, msg.confirmPurchase(what, formatYuan(payload.total_price)), values.yes);

  const answer = await purchase(ctx, productId, payload);
  if (!values.wait) {
    if (ctx.json) ctx.stdout.write(renderJson(answer));
    else ctx.stdout.write(`${msg.created(name, answer.container_id)}\n`);
    return 0;
  }
  if (!ctx.json) ctx.stdout.write(`${msg.created(name, answer.container_id)}\n`);
  const container = await waitUntilRunning(ctx, answer.container_id, answer.status, timeoutSeconds * 1000);
  if (ctx.json) ctx.stdout.write(renderJson(container));
  else ctx.stdout.write(`${msg.sshHint(sshCommandLine(container), container.name)}\n`);
  return 0;
}

/** instance-xxxxxx, the name the console gives a new instance. */
function defaultInstanceName(): string {
  return `instance-${Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

/** A catalogue framework (by name or id) and version (by name or id; the first by default). */
async function publicImage(ctx: CliContext, frameworkRef: string, versionRef: string | undefined) {
  const api = ctx.api();
  const frameworks = await api.get<Framework[]>('/api/frameworks');
  const ref = frameworkRef.trim().toLowerCase();
  const framework = frameworks.find((f) => String(f.id) === ref || f.name.toLowerCase() === ref);
  if (!framework)
    throw new CliError(
      ctx.msg.noSuchFramework(
        frameworkRef,
        frameworks.map((f) => f.name),
      ),
    );
  const versions = await api.get<FrameworkVersion[]>(`/api/frameworks/${framework.id}/versions`);
  const version =
    versionRef === undefined
      ? versions[0]
      : versions.find((v) => v.version === versionRef || String(v.id) === versionRef);
  if (!version)
    throw new CliError(
      ctx.msg.noSuchVersion(
        versionRef ?? '',
        versions.map((v) => v.version),
      ),
    );
  return {
    imageType: 'public' as const,
    framework: framework.id,
    frameworkVersion: version.id,
    frame_ports: version.ports,
  };
}

/** One of the caller's ready images: by id, NAME:TAG, or NAME (the only one, else :latest). */
async function myImage(ctx: CliContext, ref: string): Promise<UserImage> {
  const { images } = await ctx.api().get<UserImageList>('/api/images/mine');
  const ready = images.filter((i) => i.status === 'ready');
  const colon = ref.lastIndexOf(':');
  const [name, tag] = colon > 0 ? [ref.slice(0, colon), ref.slice(colon + 1)] : [ref, undefined];
  const named = ready.filter(
    (i) => String(i.id) === ref || (i.name === name && (tag === undefined || i.tag === tag)),
  );
  const found = named.length === 1 ? named[0] : named.find((i) => i.tag === 'latest');
  if (!found) throw new CliError(ctx.msg.noSuchImage(ref));
  return found;
}

/**
 * The purchase, with one Idempotency-Key for this run: when the answer is lost (the network, a
 * proxy's 502-504) the retry cannot buy twice, the server answers the first purchase again.
 */
async function purchase(
  ctx: CliContext,
  productId: number,
  payload: PurchasePayload,
): Promise<PurchaseAnswer> {
  const key = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.api().post<PurchaseAnswer>(`/api/cloud-products/${productId}/purchase`, payload, {
        headers: { 'idempotency-key': key },
      });
    } catch (err) {
      const retry =
        err instanceof NetworkError || (err instanceof ApiError && [502, 503, 504].includes(err.status));
      if (!retry || attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
}

/**
 * Follows the container through 拉取镜像中 n% and 启动中 with the status watch (the answer comes
 * once the status or the percentage changes), then reads it whole. Anything but running fails.
 */
export async function waitUntilRunning(
  ctx: CliContext,
  id: string,
  initialStatus: string,
  timeoutMs: number,
): Promise<Container> {
  const api = ctx.api();
  const progress = progressOn(ctx.stderr);
  const deadline = Date.now() + timeoutMs;
  let status = initialStatus;
  let percent: number | null = null;
  try {
    while (IN_PROGRESS.has(status)) {
      if (Date.now() > deadline) throw new CliError(ctx.msg.waitTimedOut(id, statusLabel(ctx.msg, status)));
      const wait = Math.max(1, Math.min(STATUS_WAIT_SECONDS, Math.ceil((deadline - Date.now()) / 1000)));
      const answer: ContainerStatusAnswer = await api.request<ContainerStatusAnswer>(
        'GET',
        `/api/containers/${id}/status`,
        {
          query: { while: status, progress: percent ?? undefined, wait },
          timeoutMs: (wait + 15) * 1000,
        },
      );
      status = answer.status;
      percent = answer.pull_progress;
      if (status === 'pulling') progress.update(ctx.msg.progressPulling, percent ?? 0);
      else if (IN_PROGRESS.has(status)) progress.update(ctx.msg.progressStarting, null);
    }
  } finally {
    progress.done();
  }
  const container = await api.get<Container>(`/api/containers/${id}`);
  if (container.status !== 'running')
    throw new CliError(
      ctx.msg.startFailed(
        container.name,
        statusLabel(ctx.msg, container.status),
        container.start_error ?? container.gpu_problem ?? '',
      ),
    );
  return container;
}
