// ReconfigureContainer: Docker cannot change ports, mounts or GPUs of a container, so the
// agent commits the container's filesystem and recreates it from that commit with the same
// name and labels. Files the user wrote survive. Any failure before the switch puts the old
// container back as it was.
import type { ContainerDetails } from '../docker/container-client.js';
import { containerName, gpusFromLabel, LABELS, mountsFromLabel, userLabels } from '../docker/labels.js';
import { AgentError, errorMessage } from '../errors.js';
import { type ContainerService, toManaged } from './container-service.js';
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
  await client.commitContainer(old.dockerId, COMMIT_REPOSITORY, tag);

  let newId: string | undefined;
  let parked = false;
  try {
    if (wasRunning) await client.stopContainer(old.dockerId, settings.defaultStopTimeoutSeconds);
    await client.renameContainer(old.dockerId, `${name}-superseded-${generation}`);
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
    if (newId) await client.removeContainer(newId, true).catch(log('remove the new container'));
    if (newId) await service.releaseNetwork(spec.ownerId);
    if (parked) await client.renameContainer(old.dockerId, name).catch(log('restore the old name'));
    if (wasRunning) {
      await service
        .startDocker(old.dockerId, old.nvidiaDeviceIds.length > 0)
        .catch(log('restart the old container'));
    }
    await client.removeImage(commitRef).catch(log('remove the commit image'));
    await service.deps.staged.clear(spec.containerId).catch(log('clear the staged access'));
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

  await client.removeContainer(old.dockerId, true);
  if (old.image.startsWith(`${COMMIT_REPOSITORY}:`) && old.image !== commitRef) {
    // The superseded commit: the new commit's layers stay, only its tag goes.
    await client.removeImage(old.image).catch(log(`remove ${old.image}`));
  }
  let startError = '';
  if (startNew) {
    startError = (await service.waitUntilReachable(newId, spec.ports)).problem;
    await service.deps.staged.clear(spec.containerId).catch(log('clear the staged access'));
  }
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
