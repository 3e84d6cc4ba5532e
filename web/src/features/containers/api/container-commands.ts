import type {
  Container,
  ContainerMountsInput,
  ContainerPassword,
  ContainerPortsInput,
} from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { containerKeys } from '../../../lib/query-keys';
import type { MountRow } from '../container-config';

const containerPath = (id: string) => `/api/containers/${encodeURIComponent(id)}`;

export interface StartRequest {
  id: string;
  /** 无卡模式: start without GPUs when too few are free. */
  noGpu?: boolean;
}

export function startContainer({ id, noGpu }: StartRequest) {
  return api.post<Container>(`${containerPath(id)}/start`, noGpu ? { no_gpu: true } : {});
}

export function stopContainer(id: string) {
  return api.post<Container>(`${containerPath(id)}/stop`);
}

export function deleteContainer(id: string) {
  return api.delete<{ ok: boolean }>(containerPath(id));
}

export function resetContainerPassword(id: string) {
  return api.post<ContainerPassword>(`${containerPath(id)}/reset-password`, {});
}

export function updateContainerPorts({ id, ports }: { id: string; ports: number[] }) {
  return api.post<Container>(`${containerPath(id)}/ports`, { ports } satisfies ContainerPortsInput);
}

export function updateContainerMounts({ id, mounts }: { id: string; mounts: MountRow[] }) {
  return api.post<Container>(`${containerPath(id)}/mounts`, { mounts } satisfies ContainerMountsInput);
}

function useContainerCommand<TInput, TResult>(command: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () => queryClient.invalidateQueries({ queryKey: containerKeys.all }),
  });
}

export const useStartContainer = () => useContainerCommand(startContainer);
export const useStopContainer = () => useContainerCommand(stopContainer);
export const useDeleteContainer = () => useContainerCommand(deleteContainer);
export const useResetContainerPassword = () => useContainerCommand(resetContainerPassword);
export const useUpdateContainerPorts = () => useContainerCommand(updateContainerPorts);
export const useUpdateContainerMounts = () => useContainerCommand(updateContainerMounts);
