// 保存镜像: a container's filesystem as an image in the platform's registry. One save per
// container at a time. Under the container's lock (a start, stop or reconfigure waits for it,
// never for the push): the access the platform put into the container's filesystem (host keys,
// Jupyter's token config, root's authorized_keys and password hash) is blanked, the container
// committed (paused only when running, for the commit alone; mounted volumes and the toolbox
// are mounts and never part of a commit), and the access put back. The commit's configuration
// is Docker's merge of the container's (the init as ENTRYPOINT, the agent's variables, labels
// and health check, the whole container config besides): the saved image gets the base image's
// own configuration instead (its ENTRYPOINT, CMD, USER, health check, labels, its environment
// plus the user's variables), loaded as a new image of the same layers. What is inside is read
// (image-contents.ts), then the image is pushed with the credentials given. A failure leaves the
// container as it was and removes the image again.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ContainerService } from '../containers/container-service.js';
import { checkContainerId, isReservedEnv } from '../containers/spec-validation.js';
import { TOOLBOX_INIT } from '../containers/toolbox.js';
import type {
  ContainerClient,
  ContainerDetails,
  ImageDetails,
  ImageHistoryEntry,
  RegistryCredentials,
} from '../docker/container-client.js';
import { LABELS } from '../docker/labels.js';
import { AgentError, errorMessage, failedPrecondition, invalidArgument } from '../errors.js';
import { baseDigest, type ImageContents, readImageContents } from './image-contents.js';
import { readTar, type TarEntry, writeTar } from './tar.js';

export interface SaveImageInput {
  containerId: string;
  /** `<registry host[:port]>/<path>`, no tag. */
  repository: string;
  tag: string;
  auth?: RegistryCredentials;
  /** The image the container was created from, as the node holds it ('' = the container's label). */
  baseImage: string;
  description: string;
}

export type SavePhase = 'committing' | 'inspecting' | 'pushing' | 'done';

export interface SaveImageProgress {
  phase: SavePhase;
  percent: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface SaveImageResult {
  digest: string;
  sizeBytes: number;
  contents: ImageContents;
}

export interface ImageSaverDeps {
  containers: ContainerService;
  /** The toolbox folder (the contents are read with its shell). */
  toolboxPath: string;
  log?: (line: string) => void;
}

const REPOSITORY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)+$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const IMAGE_REF = /^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/;
/** Where the platform's own access lives in a container (toolbox init and access script). */
const HOST_KEYS = ['ed25519', 'ecdsa', 'rsa'].map((t) => `/etc/gpucloud/ssh/dropbear_${t}_host_key`);
const JUPYTER_CONFIGS = ['jupyter_server_config.json', 'jupyter_notebook_config.json'].map(
  (f) => `/etc/gpucloud/jupyter/${f}`,
);
const PLATFORM_ENV = new Set(['JUPYTER_TOKEN', 'JUPYTER_PASSWORD', 'JUPYTER_CONFIG_PATH']);
/** The fields of a Docker image config (the rest of inspect's Config belongs to containers). */
const IMAGE_CONFIG_FIELDS = [
  'User',
  'ExposedPorts',
  'Env',
  'Entrypoint',
  'Cmd',
  'Volumes',
  'WorkingDir',
  'Labels',
  'StopSignal',
  'Healthcheck',
  'OnBuild',
  'Shell',
  'ArgsEscaped',
];
const METADATA_STEP =
  /^(\/bin\/sh -c )?#\(nop\)|^(ENV|CMD|LABEL|ENTRYPOINT|EXPOSE|USER|WORKDIR|ARG|STOPSIGNAL|HEALTHCHECK|SHELL|ONBUILD|VOLUME|MAINTAINER)\b/;

/** A variable the agent sets on every container: never part of a saved image. */
export function isPlatformEnv(key: string): boolean {
  return isReservedEnv(key) || key.startsWith('GPUCLOUD_') || PLATFORM_ENV.has(key);
}

const keyOf = (entry: string) => (entry.includes('=') ? entry.slice(0, entry.indexOf('=')) : entry);

/** The base's environment with the container's own variables (the user's) over it; the agent's left out. */
export function savedEnv(baseEnv: string[], containerEnv: string[]): string[] {
  const env = new Map(baseEnv.map((e) => [keyOf(e), e]));
  for (const entry of containerEnv) {
    const key = keyOf(entry);
    if (isPlatformEnv(key)) continue;
    env.set(key, entry);
  }
  return [...env.values()];
}

const stringArray = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * The saved image's configuration: the base image's, its environment with the user's variables,
 * its labels with the description and the base's name and digest. Without the base at hand,
 * the container's with the platform's parts taken out.
 */
export function savedConfig(
  container: ContainerDetails,
  base: ImageDetails | undefined,
  baseRef: string,
  description: string,
): Record<string, unknown> {
  let config: Record<string, unknown>;
  if (base) {
    config = Object.fromEntries(
      IMAGE_CONFIG_FIELDS.filter((f) => f in base.config).map((f) => [f, base.config[f]]),
    );
  } else {
    const viaInit = container.entrypoint.length === 1 && container.entrypoint[0] === TOOLBOX_INIT;
    const user = container.env.find((e) => e.startsWith('GPUCLOUD_USER='));
    config = {
      User: viaInit ? (user?.slice('GPUCLOUD_USER='.length) ?? '') : container.user,
      Entrypoint: viaInit ? null : container.entrypoint,
      Cmd: container.command,
      WorkingDir: container.workingDir,
    };
  }
  const labels: Record<string, string> = {
    ...(base ? (base.config.Labels as Record<string, string> | null | undefined) : {}),
    'org.opencontainers.image.base.name': baseRef,
    ...(base ? { 'org.opencontainers.image.base.digest': baseDigest(base, baseRef) } : {}),
    ...(description ? { 'org.opencontainers.image.description': description } : {}),
  };
  return {
    ...config,
    Env: savedEnv(base ? stringArray(base.config.Env) : [], container.env),
    Labels: labels,
  };
}

/** A Dockerfile string literal (for the commit's changes). */
function quote(value: string): string {
  return `"${value.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/**
 * The commit's changes: the saved configuration where a change can express it. Docker merges the
 * container's variables and labels into a commit whatever it is told, so the platform's are
 * blanked (the loaded configuration then replaces the whole config; this is what remains where
 * an engine cannot load it).
 */
export function commitChanges(config: Record<string, unknown>, container: ContainerDetails): string[] {
  const changes: string[] = [];
  const env = stringArray(config.Env);
  const keep = new Set(env.map(keyOf));
  for (const entry of container.env) {
    const key = keyOf(entry);
    if (!keep.has(key) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) changes.push(`ENV ${key}=""`);
  }
  for (const entry of env) {
    const key = keyOf(entry);
    const value = entry.slice(key.length + 1);
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !value.includes('\n'))
      changes.push(`ENV ${key}=${quote(value)}`);
  }
  const labels = (config.Labels ?? {}) as Record<string, string>;
  for (const key of Object.keys(container.labels)) {
    if (!(key in labels) && /^[A-Za-z0-9._-]+$/.test(key)) changes.push(`LABEL ${key}=""`);
  }
  const entrypoint = stringArray(config.Entrypoint);
  changes.push(`ENTRYPOINT ${JSON.stringify(entrypoint)}`);
  const cmd = stringArray(config.Cmd);
  if (cmd.length > 0) changes.push(`CMD ${JSON.stringify(cmd)}`);
  if (typeof config.User === 'string' && config.User) changes.push(`USER ${config.User}`);
  return changes;
}

/**
 * The history of the loaded image: Docker's history of the commit, each step marked as a layer
 * or not so that the steps with layers match the layers (the history API gives no such flag:
 * steps with bytes are layers, the rest are taken from the steps that do not set metadata).
 * Undefined where they cannot be matched (then the image has no history).
 */
export function historyFor(
  history: ImageHistoryEntry[],
  layerCount: number,
  savedBy: string,
): Array<Record<string, unknown>> | undefined {
  const oldest = [...history].reverse();
  const isLayer = oldest.map((e) => e.sizeBytes > 0);
  let count = isLayer.filter(Boolean).length;
  for (const metadata of [false, true]) {
    for (let i = 0; i < oldest.length && count < layerCount; i++) {
      if (!isLayer[i] && METADATA_STEP.test(oldest[i]!.createdBy) === metadata) {
        isLayer[i] = true;
        count += 1;
      }
    }
  }
  if (count !== layerCount) return undefined;
  return oldest.map((e, i) => ({
    created: new Date(e.createdUnix * 1000).toISOString(),
    created_by: i === oldest.length - 1 ? savedBy : e.createdBy,
    ...(e.comment ? { comment: e.comment } : {}),
    ...(isLayer[i] ? {} : { empty_layer: true }),
  }));
}

/** A `docker load` archive of an image config over layers the engine holds (no layer files in it). */
export function configArchive(ref: string, config: Record<string, unknown>): { archive: Buffer; id: string } {
  const json = Buffer.from(JSON.stringify(config));
  const hex = createHash('sha256').update(json).digest('hex');
  const layers = ((config.rootfs as { diff_ids: string[] }).diff_ids ?? []).map(
    (_, i) => `layer${i}/layer.tar`,
  );
  const manifest = JSON.stringify([{ Config: `${hex}.json`, RepoTags: [ref], Layers: layers }]);
  const now = Math.floor(Date.now() / 1000);
  const file = (name: string, data: Buffer): TarEntry => ({
    name,
    type: '0',
    mode: 0o644,
    uid: 0,
    gid: 0,
    mtime: now,
    linkname: '',
    data,
  });
  return {
    archive: writeTar([file(`${hex}.json`, json), file('manifest.json', Buffer.from(manifest))]),
    id: `sha256:${hex}`,
  };
}

/** Root's home as /etc/passwd of the container says. */
async function rootHome(client: ContainerClient, dockerId: string): Promise<string> {
  const tar = await client.getArchive(dockerId, '/etc/passwd').catch(() => undefined);
  const passwd = tar
    ? readTar(tar)
        .find((e) => e.type === '0')
        ?.data.toString('utf8')
    : undefined;
  const root = passwd?.split('\n').find((line) => line.startsWith('root:'));
  const home = root?.split(':')[5];
  return home?.startsWith('/') ? home : '/root';
}

function blanked(file: string, data: Buffer): Buffer {
  if (file === '/etc/shadow') return Buffer.from(data.toString('utf8').replace(/^root:[^:]*:/m, 'root:*:'));
  if (file.endsWith('.json')) return Buffer.from('{}\n');
  return Buffer.alloc(0);
}

/**
 * Blanks the platform's access in the container's filesystem (running or not: through Docker's
 * archive endpoints, no tool of the image needed); returns what puts it back.
 */
async function blankAccess(
  client: ContainerClient,
  container: Pick<ContainerDetails, 'dockerId' | 'binds'>,
  log: (line: string) => void,
): Promise<() => Promise<void>> {
  const dockerId = container.dockerId;
  // A file in a mount is not committed (and is the user's volume): left alone.
  const mounted = (file: string) =>
    container.binds.some((b) => file === b.target || file.startsWith(`${b.target.replace(/\/$/, '')}/`));
  const files = [
    ...HOST_KEYS,
    ...JUPYTER_CONFIGS,
    `${await rootHome(client, dockerId)}/.ssh/authorized_keys`,
    '/etc/shadow',
  ].filter((file) => !mounted(file));
  const saved: Array<{ dir: string; tar: Buffer }> = [];
  const restore = async () => {
    for (const { dir, tar } of saved.reverse()) {
      await client
        .putArchive(dockerId, dir, tar)
        .catch((err: unknown) =>
          log(`restoring ${dir} of ${dockerId} after the commit failed: ${errorMessage(err)}`),
        );
    }
  };
  try {
    for (const file of files) {
      const tar = await client.getArchive(dockerId, file);
      if (!tar) continue;
      const entry = readTar(tar).find((e) => e.type === '0' || e.type === '\0');
      if (!entry || entry.data.length === 0) continue;
      const dir = path.posix.dirname(file);
      saved.push({ dir, tar });
      await client.putArchive(
        dockerId,
        dir,
        writeTar([{ ...entry, type: '0', data: blanked(file, entry.data) }]),
      );
    }
  } catch (err) {
    await restore();
    throw err;
  }
  return restore;
}

function checkInput(input: SaveImageInput): void {
  checkContainerId(input.containerId);
  if (!REPOSITORY.test(input.repository)) {
    throw invalidArgument(
      `镜像仓库地址不合法 (bad repository "${input.repository}": host[:port]/path, no tag)`,
    );
  }
  if (!TAG.test(input.tag)) throw invalidArgument(`镜像标签不合法 (bad tag "${input.tag}")`);
  if (input.baseImage && !IMAGE_REF.test(input.baseImage)) {
    throw invalidArgument(`基础镜像名称不合法 (bad base image "${input.baseImage}")`);
  }
  if (input.description.length > 1000)
    throw invalidArgument('镜像描述过长 (description over 1000 characters)');
}

/** Failures of a save as the control plane shows them: why, in Chinese first. */
function saveFailure(err: unknown): AgentError {
  if (err instanceof AgentError && ['INVALID_ARGUMENT', 'NOT_FOUND', 'CANCELLED'].includes(err.code))
    return err;
  const message = err instanceof AgentError ? err.message : errorMessage(err);
  const code = err instanceof AgentError && err.code !== 'INTERNAL' ? err.code : 'FAILED_PRECONDITION';
  return new AgentError(code, `保存镜像失败 (${message})`, { cause: err });
}

export class ImageSaver {
  private readonly saving = new Set<string>();

  constructor(private readonly deps: ImageSaverDeps) {}

  private get client(): ContainerClient {
    return this.deps.containers.deps.client;
  }

  private log(line: string): void {
    this.deps.log?.(line);
  }

  /** Removes an image reference from the node (not forced: refused while a container uses it). */
  async remove(ref: string): Promise<boolean> {
    if (!IMAGE_REF.test(ref)) throw invalidArgument(`镜像名称不合法 (bad image reference "${ref}")`);
    return this.client.removeImage(ref);
  }

  async save(
    input: SaveImageInput,
    onProgress: (progress: SaveImageProgress) => void,
    signal?: AbortSignal,
  ): Promise<SaveImageResult> {
    checkInput(input);
    if (this.saving.has(input.containerId)) {
      throw failedPrecondition(
        `容器 ${input.containerId} 正在保存镜像, 请等待完成后再试 (a save of this container is under way)`,
      );
    }
    this.saving.add(input.containerId);
    try {
      return await this.saveOnce(input, onProgress, signal);
    } finally {
      this.saving.delete(input.containerId);
    }
  }

  private async saveOnce(
    input: SaveImageInput,
    onProgress: (progress: SaveImageProgress) => void,
    signal?: AbortSignal,
  ): Promise<SaveImageResult> {
    const client = this.client;
    const target = `${input.repository}:${input.tag}`;
    const temp = {
      repo: 'gpucloud/saving',
      tag: `${input.containerId.toLowerCase()}-${randomBytes(4).toString('hex')}`,
    };
    const tempRef = `${temp.repo}:${temp.tag}`;
    const made: string[] = [];
    const report = (phase: SavePhase, percent: number, bytesDone = 0, bytesTotal = 0) =>
      onProgress({ phase, percent: Math.min(100, Math.max(0, Math.floor(percent))), bytesDone, bytesTotal });
    const cancelled = () => {
      if (signal?.aborted) throw new AgentError('CANCELLED', '保存已取消 (the save was cancelled)');
    };
    try {
      report('committing', 0);
      const containers = this.deps.containers;
      const { baseRef, base } = await containers.lock
        .run(input.containerId, async () => {
          const details = await containers.get(input.containerId);
          if (!['running', 'exited', 'created', 'paused'].includes(details.state)) {
            throw failedPrecondition(
              `容器状态为 ${details.state}, 无法保存镜像 (the container is ${details.state})`,
            );
          }
          const baseRef = input.baseImage || details.labels[LABELS.image] || details.image;
          const base = await client.imageDetails(baseRef);
          const config = savedConfig(details, base, baseRef, input.description);
          const restore = await blankAccess(client, details, (line) => this.log(line));
          try {
            await client.commitContainer(details.dockerId, temp.repo, temp.tag, {
              pause: details.state === 'running',
              changes: commitChanges(config, details),
              comment: `gpucloud: saved from container ${input.containerId}`,
            });
            made.push(tempRef);
          } finally {
            await restore();
          }
          return { baseRef, base, config };
        })
        .then(async ({ baseRef, base, config }) => {
          await this.replaceConfig(tempRef, target, config, input.containerId);
          made.push(target);
          return { baseRef, base };
        });
      await client
        .removeImage(tempRef)
        .catch((err: unknown) => this.log(`removing ${tempRef} failed: ${errorMessage(err)}`));
      made.splice(made.indexOf(tempRef), 1);
      cancelled();

      report('inspecting', 10);
      const details = await client.imageDetails(target);
      if (!details) throw new AgentError('INTERNAL', `the saved image ${target} vanished`);
      const history = await client.imageHistory(target);
      const baseHistory = base ? await client.imageHistory(base.id).catch(() => []) : [];
      const contents = await readImageContents(
        { client, toolboxPath: this.deps.toolboxPath, ...(this.deps.log ? { log: this.deps.log } : {}) },
        {
          image: target,
          details,
          history,
          base: { ref: baseRef, details: base, historyLength: baseHistory.length },
        },
      );
      cancelled();

      report('pushing', 20);
      const layers = new Map<string, { current: number; total: number; complete: boolean }>();
      let percent = 20;
      const { digest } = await client.pushImage(
        target,
        input.auth,
        (p) => {
          if (!p.id) return;
          const layer = layers.get(p.id) ?? { current: 0, total: 0, complete: false };
          if (p.total > 0) layer.total = p.total;
          if (p.status === 'Pushing') layer.current = Math.min(p.current, layer.total || p.current);
          if (/^(Pushed|Layer already exists|Mounted from)/.test(p.status)) layer.complete = true;
          layers.set(p.id, layer);
          const all = [...layers.values()];
          const total = all.reduce((sum, l) => sum + l.total, 0);
          const done = all.reduce((sum, l) => sum + (l.complete ? l.total : l.current), 0);
          const finished = all.filter((l) => l.complete).length;
          // By bytes where the sizes are known; by layers while none is.
          const fraction = total > 0 ? done / total : all.length > 0 ? finished / all.length : 0;
          percent = Math.max(percent, 20 + Math.min(79, 80 * fraction));
          report('pushing', percent, done, total);
        },
        signal,
      );
      report('done', 100, details.sizeBytes, details.sizeBytes);
      return { digest, sizeBytes: details.sizeBytes, contents };
    } catch (err) {
      for (const ref of made.reverse()) {
        await client
          .removeImage(ref)
          .catch((e: unknown) => this.log(`removing ${ref} after a failed save failed: ${errorMessage(e)}`));
      }
      throw saveFailure(err);
    }
  }

  /**
   * Tags the commit as `target` with the saved configuration: a `docker load` of the new config
   * over the commit's layers (which the engine holds, so none is copied). An engine that cannot
   * load it (the containerd image store wants the layers in the archive) gets the commit as it
   * is, whose changes already hold the configuration but for the blanked variables' names.
   */
  private async replaceConfig(
    tempRef: string,
    target: string,
    config: Record<string, unknown>,
    containerId: string,
  ): Promise<void> {
    const client = this.client;
    const committed = await client.imageDetails(tempRef);
    if (!committed) throw new AgentError('INTERNAL', `the commit ${tempRef} vanished`);
    const history = historyFor(
      await client.imageHistory(tempRef),
      committed.diffIds.length,
      `gpucloud save-image (container ${containerId})`,
    );
    const imageConfig = {
      architecture: committed.architecture || 'amd64',
      os: committed.os || 'linux',
      ...(committed.variant ? { variant: committed.variant } : {}),
      created: new Date().toISOString(),
      config,
      rootfs: { type: 'layers', diff_ids: committed.diffIds },
      ...(history ? { history } : {}),
    };
    const { archive, id } = configArchive(target, imageConfig);
    try {
      await client.loadImage(archive);
      const loaded = await client.imageDetails(target);
      if (loaded?.id === id) return;
      this.log(`the engine loaded ${target} as ${loaded?.id ?? 'nothing'}, not ${id}: keeping the commit`);
    } catch (err) {
      this.log(`loading the configuration of ${target} failed (${errorMessage(err)}): keeping the commit`);
    }
    const slash = target.lastIndexOf('/');
    const colon = target.lastIndexOf(':');
    if (colon <= slash) throw new AgentError('INTERNAL', `no tag in ${target}`);
    await client.tagImage(tempRef, target.slice(0, colon), target.slice(colon + 1));
  }
}
