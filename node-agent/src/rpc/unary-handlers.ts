// The unary methods of NodeAgent: convert the request, call the use case, convert the answer.
import type { NodeAgentHandlers } from '@gpucloud/proto';
import { reconfigureContainer } from '../containers/reconfigure.js';
import {
  containerToProto,
  hostInfoToProto,
  mountFromProto,
  portFromProto,
  registryAuthFromProto,
  specFromProto,
  volumeToProto,
} from './convert.js';
import { type RpcDeps, unary } from './rpc-support.js';

type UnaryMethods =
  | 'GetHostInfo'
  | 'CreateContainer'
  | 'StartContainer'
  | 'StopContainer'
  | 'RemoveContainer'
  | 'InspectContainer'
  | 'ListContainers'
  | 'ReconfigureContainer'
  | 'ResetPassword'
  | 'ListOccupiedPorts'
  | 'ListImages'
  | 'CreateVolume'
  | 'DeleteVolume'
  | 'RenameVolume'
  | 'GetVolumeUsage'
  | 'ListVolumes'
  | 'RemoveImage';

export function unaryHandlers(deps: RpcDeps): Pick<NodeAgentHandlers, UnaryMethods> {
  const { containers, volumes } = deps;
  return {
    RemoveImage: unary(deps, 'RemoveImage', async (req) => ({ removed: await deps.saver.remove(req.image) })),

    GetHostInfo: unary(deps, 'GetHostInfo', async () => hostInfoToProto(await deps.hostInfo())),

    CreateContainer: unary(deps, 'CreateContainer', async (req) => {
      const registryAuth = registryAuthFromProto(req.registryAuth);
      const created = await containers.create({
        spec: specFromProto(req.spec),
        rootPassword: req.rootPassword,
        authorizedKeys: req.authorizedKeys,
        start: req.start,
        ...(registryAuth ? { registryAuth } : {}),
      });
      return containerToProto(created);
    }),

    StartContainer: unary(deps, 'StartContainer', async (req) =>
      containerToProto(
        await containers.start({
          containerId: req.containerId,
          authorizedKeys: req.authorizedKeys,
          rootPassword: req.rootPassword,
        }),
      ),
    ),

    StopContainer: unary(deps, 'StopContainer', async (req) =>
      containerToProto(await containers.stop(req.containerId, req.timeoutSeconds)),
    ),

    RemoveContainer: unary(deps, 'RemoveContainer', async (req) => ({
      removed: await containers.remove(req.containerId, req.force),
    })),

    InspectContainer: unary(deps, 'InspectContainer', async (req) =>
      containerToProto(await containers.inspect(req.containerId)),
    ),

    ListContainers: unary(deps, 'ListContainers', async (req) => ({
      containers: (await containers.list(req.all, req.ownerId)).map(containerToProto),
    })),

    ReconfigureContainer: unary(deps, 'ReconfigureContainer', async (req) =>
      containerToProto(
        await reconfigureContainer(containers, {
          containerId: req.containerId,
          ...(req.setPorts ? { ports: req.ports.map(portFromProto) } : {}),
          ...(req.setMounts ? { mounts: req.mounts.map(mountFromProto) } : {}),
          ...(req.setGpus ? { gpuDeviceIds: req.gpuDeviceIds } : {}),
          restartIfRunning: req.restartIfRunning,
          authorizedKeys: req.authorizedKeys,
        }),
      ),
    ),

    ResetPassword: unary(deps, 'ResetPassword', async (req) => ({
      password: await containers.resetPassword(req.containerId, req.password),
    })),

    ListOccupiedPorts: unary(deps, 'ListOccupiedPorts', async () => ({
      ports: await deps.occupiedPorts.list(),
    })),

    ListImages: unary(deps, 'ListImages', async () => {
      const inventory = await deps.images.read();
      return {
        images: inventory.images.map((image) => ({
          tags: image.tags,
          imageId: image.imageId,
          sizeBytes: image.sizeBytes,
          createdUnix: image.createdUnix,
        })),
        pulling: inventory.pulling,
        diskTotalBytes: inventory.diskTotalBytes,
        diskFreeBytes: inventory.diskFreeBytes,
      };
    }),

    CreateVolume: unary(deps, 'CreateVolume', async (req) =>
      volumeToProto(await volumes.create(req.ownerId, req.name)),
    ),

    DeleteVolume: unary(deps, 'DeleteVolume', async (req) => ({
      deleted: await volumes.delete(req.ownerId, req.name),
    })),

    RenameVolume: unary(deps, 'RenameVolume', async (req) =>
      volumeToProto(await volumes.rename(req.ownerId, req.name, req.newName)),
    ),

    GetVolumeUsage: unary(deps, 'GetVolumeUsage', async (req) =>
      volumeToProto(await volumes.usageOf(req.ownerId, req.name)),
    ),

    ListVolumes: unary(deps, 'ListVolumes', async (req) => ({
      volumes: (await volumes.list(req.ownerId)).map(volumeToProto),
    })),
  };
}
