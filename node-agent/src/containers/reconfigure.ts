// ReconfigureContainer: Docker cannot change ports, mounts or GPUs of a container, so the
// agent commits the container's filesystem and recreates it from that commit with the same
// name and labels. Files the user wrote survive. Any failure before the switch puts the old
// container back as it was; so does the agent's next start after a crash halfway
// (recoverRecreates, from the record recreate-journal.ts keeps).
import type { ContainerDetails } from '../docker/container-client.js';
import {
  containerName,
  gpusFromLabel,
  LABELS,
  MANAGED_FILTER,
  mountsFromLabel,
  userLabels,
} from '../docker/labels.js';
import { AgentError, errorMessage } from '../errors.js';
import { type ContainerService, toManaged } from './container-service.js';
import type { RecreateJournal, RecreateRecord } from './recreate-journal.js';
import {
  BASE_DRIVER_CAPABILITIES,
  checkAuthorizedKeys,
  checkGpuIds,
  checkMounts,
  checkPorts,
  EXTRA_DRIVER_CAPABILITIES,
} from './spec-validation.js';
import { TOOLBOX_INIT } from './toolbox.js';
import type { ContainerSpecInput, ManagedContainer, ReconfigureInput } from './types.js';

export const COMMIT_REPOSITORY = 'gpucloud/commit';

/** The spec a managed container was created from, read back from Docker. */
export function specFromDetails(details: ContainerDetails): ContainerSpecInput {
  const labels = details.labels;
  const managed = toManaged(details);
  return {
    containerId: managed.containerId,
    ownerId: managed.ownerId,
    ownerName: labels[LABELS.ownerName] ?? '',
    displayName: managed.displayName,
    image: managed.image,
    gpuDeviceIds: gpusFromLabel(labels[LABELS.gpus]),
    ports: managed.ports,
    mounts: mountsFromLabel(labels[LABELS.mounts]),
    resources: details.resources,
    env: {},
    labels: userLabels(labels),
    command: details.command,
    extraDriverCapabilities: extraCapabilitiesFromEnv(details.env),
  };
}

/** The capabilities beyond compute,utility the container was given (its NVIDIA_DRIVER_CAPABILITIES). */
function extraCapabilitiesFromEnv(env: string[]): string[] {
  const value = env.find((e) => e.startsWith('NVIDIA_DRIVER_CAPABILITIES='))?.slice(27) ?? '';
  return value
    .split(',')
    .map((c) => c.trim())
    .filter(
      (c) =>
        EXTRA_DRIVER_CAPABILITIES.includes(c) && !(BASE_DRIVER_CAPABILITIES as readonly string[]).includes(c),
    );
}

export function reconfigureContainer(
  service: ContainerService,
  input: ReconfigureInput,
): Promise<ManagedContainer> {
  const keys = checkAuthorizedKeys(input.authorizedKeys);
  return service.lock.run(input.containerId, () => reconfigureLocked(service, input, keys));
}

async function reconfigureLocked(
  service: ContainerService,
  input: ReconfigureInput,
  keys: string[],
): Promise<ManagedContainer> {
  const { client, settings } = service.deps;
  const log = (what: string) => (err: unknown) =>
    service.deps.log?.(`reconfigure ${input.containerId}: ${what}: ${errorMessage(err)}`);
  const old = await service.get(input.containerId);
  const spec = specFromDetails(old);
  if (input.ports) spec.ports = checkPorts(input.ports, settings);
  if (input.mounts) spec.mounts = checkMounts(input.mounts);
  if (input.gpuDeviceIds) spec.gpuDeviceIds = checkGpuIds(input.gpuDeviceIds);
  const binds = await service.resolveBinds(spec.ownerId, spec.mounts);
  await service.checkPortsFree(
    spec.ports,
    old.ports.map((p) => p.hostPort),
  );
  const wasRunning = old.state === 'running' || old.state === 'restarting';
  const startNew = wasRunning && input.restartIfRunning;
  const placement = await service.checkGpus(spec.containerId, spec.gpuDeviceIds, startNew);
  // The recreated container names its GPUs by UUID, whatever the old labels or request said.
  spec.gpuDeviceIds = placement.gpus.map((g) => g.uuid);
  // A CPU limit derived from the GPUs follows their number.
  if (old.labels[LABELS.cpuShare] === 'auto') spec.resources = { ...spec.resources, nanoCpus: 0 };
  const cpuShare = await service.cpuShare(spec.gpuDeviceIds.length);

  const generation = (Number(old.labels[LABELS.generation]) || 0) + 1;
  const tag = `${spec.containerId}-${generation}`;
  const commitRef = `${COMMIT_REPOSITORY}:${tag}`;
  const name = containerName(spec.containerId);
  const parkedName = `${name}-superseded-${generation}`;
  const supersededImage =
    old.image.startsWith(`${COMMIT_REPOSITORY}:`) && old.image !== commitRef ? old.image : undefined;
  // On disk before anything changes: a crash of the agent from here on is undone at its next start.
  const journal = service.deps.recreates;
  await journal.write({
    containerId: spec.containerId,
    oldDockerId: old.dockerId,
    generation,
    parkedName,
    wasRunning,
    commitRef,
    ...(supersededImage ? { supersededImage } : {}),
  });
  const forget = () => journal.remove(spec.containerId).catch(log('remove the recreate record'));
  try {
    await client.commitContainer(old.dockerId, COMMIT_REPOSITORY, tag);
  } catch (err) {
    await forget();
    throw err;
  }

  let newId: string | undefined;
  let parked = false;
  try {
    if (wasRunning) await client.stopContainer(old.dockerId, settings.defaultStopTimeoutSeconds);
    await client.renameContainer(old.dockerId, parkedName);
    parked = true;
    await service.deps.staged.prepare(spec.containerId);
    const definition = service.definition(spec, binds, {
      image: commitRef,
      generation,
      env: old.env,
      devicePath: placement.devicePath,
      cpuShare,
      ...runsAs(old),
    });
    // On the owner's network: a container of the default bridge moves to it here.
    newId = await service.createOnNetwork(spec.ownerId, definition);
    if (startNew) {
      // The user's keys, staged for the init: the recreated container's first banner accepts them.
      await service.deps.staged.write(spec.containerId, { rootPassword: '', authorizedKeys: keys });
      await service.startDocker(newId, definition.nvidiaDeviceIds.length > 0);
    }
  } catch (err) {
    // A step of the rollback that failed keeps the record: the next start of the agent retries it.
    let undone = true;
    const failed = (what: string) => (e: unknown) => {
      undone = false;
      log(what)(e);
    };
    if (newId) await client.removeContainer(newId, true).catch(failed('remove the new container'));
    if (newId) await service.releaseNetwork(spec.ownerId);
    if (parked) await client.renameContainer(old.dockerId, name).catch(failed('restore the old name'));
    if (wasRunning) {
      await service
        .startDocker(old.dockerId, old.nvidiaDeviceIds.length > 0)
        .catch(failed('restart the old container'));
    }
    await client.removeImage(commitRef).catch(log('remove the commit image'));
    await service.deps.staged.clear(spec.containerId).catch(log('clear the staged access'));
    if (undone) await forget();
    if (err instanceof AgentError && err.code === 'INTERNAL') {
      throw new AgentError(
        'FAILED_PRECONDITION',
        `容器重建失败, 已恢复原容器 (recreate failed, old container restored: ${err.message})`,
        {
          cause: err,
        },
      );
    }
    throw err;
  }

  // The new container is the user's from here on: a record kept after this would undo it.
  await client.removeContainer(old.dockerId, true).catch(async (err: unknown) => {
    await forget();
    throw err;
  });
  if (supersededImage) {
    // The superseded commit: the new commit's layers stay, only its tag goes.
    await client.removeImage(supersededImage).catch(log(`remove ${supersededImage}`));
  }
  let startError = '';
  if (startNew) {
    startError = (await service.waitUntilReachable(newId, spec.ports)).problem;
    await service.deps.staged.clear(spec.containerId).catch(log('clear the staged access'));
  }
  await forget();
  const details = await client.inspectContainer(newId);
  if (!details) throw new AgentError('INTERNAL', `the recreated container ${name} vanished`);
  return service.managed(details, startError);
}

/**
 * What the recreated container runs: the command our init was given (the image's ENTRYPOINT +
 * CMD at create), as the image's user. A container from before the toolbox ran the image's
 * ENTRYPOINT and CMD itself.
 */
function runsAs(old: ContainerDetails): { command: string[]; imageUser: string } {
  if (old.entrypoint.length === 1 && old.entrypoint[0] === TOOLBOX_INIT) {
    const user = old.env.find((e) => e.startsWith('GPUCLOUD_USER='));
    return { command: old.command, imageUser: user ? user.slice('GPUCLOUD_USER='.length) : '' };
  }
  return { command: [...old.entrypoint, ...old.command], imageUser: old.user };
}

/** `gpucloud-<id>-superseded-<generation>`: an old container parked by a recreate. */
const PARKED_NAME = /^gpucloud-(.+)-superseded-(\d+)$/;

/**
 * Undoes the recreates the agent died in (run at its start, before it serves calls): the
 * journal's records, and containers of this node parked by a recreate before the journal
 * existed (taken as not running). Each ends in one log line; a failure is logged, never thrown.
 */
export async function recoverRecreates(service: ContainerService): Promise<void> {
  const journal = service.deps.recreates;
  const log = (line: string) => service.deps.log?.(line);
  const records = await journal
    .list((file, problem) => log(`recreate record ${file} cannot be read, left as is: ${problem}`))
    .catch((err: unknown) => {
      log(`recreate records cannot be read: ${errorMessage(err)}`);
      return [];
    });
  const seen = new Set<string>();
  for (const record of records) {
    seen.add(record.oldDockerId);
    await recoverRecreate(service, journal, record, true).catch((err: unknown) =>
      log(`recreate of ${record.containerId} not recovered, retried at the next start: ${errorMessage(err)}`),
    );
  }
  const parked = await service.deps.client
    .listContainers({
      all: true,
      labels: [MANAGED_FILTER, `${LABELS.node}=${service.deps.settings.nodeName}`],
    })
    .catch((err: unknown) => {
      log(`parked containers cannot be listed: ${errorMessage(err)}`);
      return [];
    });
  for (const container of parked) {
    const match = PARKED_NAME.exec(container.name);
    const containerId = container.labels[LABELS.containerId] ?? '';
    if (!match || match[1] !== containerId || seen.has(container.dockerId)) continue;
    const generation = Number(match[2]);
    const record: RecreateRecord = {
      containerId,
      oldDockerId: container.dockerId,
      generation,
      parkedName: container.name,
      wasRunning: false,
      commitRef: `${COMMIT_REPOSITORY}:${containerId}-${generation}`,
    };
    await recoverRecreate(service, journal, record, false).catch((err: unknown) =>
      log(`parked container ${container.name} not recovered: ${errorMessage(err)}`),
    );
  }
}

async function recoverRecreate(
  service: ContainerService,
  journal: RecreateJournal,
  record: RecreateRecord,
  journaled: boolean,
): Promise<void> {
  const { client, staged } = service.deps;
  const { containerId, generation } = record;
  const log = (line: string) =>
    service.deps.log?.(`recreate of ${containerId} (generation ${generation}): ${line}`);
  const logFailure = (what: string) => (err: unknown) => log(`${what} failed: ${errorMessage(err)}`);
  const name = containerName(containerId);
  const old = await client.inspectContainer(record.oldDockerId);
  if (!old || old.labels[LABELS.containerId] !== containerId) {
    // The old container went after the new one was made: the switch is complete.
    await staged.clear(containerId);
    if (record.supersededImage) {
      await client.removeImage(record.supersededImage).catch(logFailure(`remove ${record.supersededImage}`));
    }
    await journal.remove(containerId);
    log('had completed before the agent stopped; its staged access cleared');
    return;
  }
  let removedNew = false;
  const current = old.name === name ? undefined : await client.inspectContainer(name);
  if (current) {
    const fromThisRecreate =
      current.labels[LABELS.managed] === 'true' &&
      current.labels[LABELS.containerId] === containerId &&
      current.labels[LABELS.generation] === String(generation);
    // Without a record the parked container may be from a crash long ago, and the one under
    // the name the user's since: neither is removed on a guess.
    if (!fromThisRecreate || !journaled) {
      if (journaled) await journal.remove(containerId);
      log(`${name} exists and is not this recreate's new container; ${old.name} left as is`);
      return;
    }
    await client.removeContainer(current.dockerId, true);
    removedNew = true;
    const ownerId = old.labels[LABELS.ownerId];
    if (ownerId) await service.releaseNetwork(ownerId);
  }
  if (old.name !== name) await client.renameContainer(old.dockerId, name);
  // Nothing staged for the old container's start: it keeps the access it had.
  await staged.prepare(containerId);
  await staged.clear(containerId);
  let started = '';
  if (record.wasRunning && old.state !== 'running') {
    started = await service.startDocker(old.dockerId, old.nvidiaDeviceIds.length > 0).then(
      () => ', started again',
      (err: unknown) => `, but its start failed: ${errorMessage(err)}`,
    );
  }
  await client.removeImage(record.commitRef).catch(logFailure(`remove ${record.commitRef}`));
  if (journaled) await journal.remove(containerId);
  log(
    `interrupted by the agent's stop; the old container is back as ${name}${started}` +
      (removedNew ? ', the new one removed' : ''),
  );
}
