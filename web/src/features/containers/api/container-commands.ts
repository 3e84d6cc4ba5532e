import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Container } from '../types';
import { containerKeys } from './query-keys';

const containerPath = (id: string) => `/api/containers/${encodeURIComponent(id)}`;

export function startContainer(id: string) {
  return api.post<Container>(`${containerPath(id)}/start`);
}

export function stopContainer(id: string) {
  return api.post<Container>(`${containerPath(id)}/stop`);
}

export function deleteContainer(id: string) {
  return api.delete<{ ok: boolean }>(containerPath(id));
}

function useContainerCommand(command: (id: string) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () => queryClient.invalidateQueries({ queryKey: containerKeys.all }),
  });
}

export const useStartContainer = () => useContainerCommand(startContainer);
export const useStopContainer = () => useContainerCommand(stopContainer);
export const useDeleteContainer = () => useContainerCommand(deleteContainer);
