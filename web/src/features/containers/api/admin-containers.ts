import type { Container, ContainerList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { containerKeys } from '../../../lib/query-keys';
import type { StartRequest } from './container-commands';

/** GET /api/admin/containers: page is 1-based; an empty username or status is left out. */
export interface AdminContainerQuery {
  page: number;
  size: number;
  username: string;
  status: string;
}

export const ADMIN_PAGE_SIZES = [10, 20, 50, 100];
export const ADMIN_DEFAULT_PAGE_SIZE = 20;

const adminPath = (id: string) => `/api/admin/containers/${encodeURIComponent(id)}`;

export async function getAdminContainers(query: AdminContainerQuery, signal?: AbortSignal) {
  const data = await api.get<ContainerList>('/api/admin/containers', {
    params: {
      page: query.page,
      size: query.size,
      username: query.username.trim() || undefined,
      status: query.status || undefined,
    },
    signal,
  });
  return toList(data);
}

/** One page of every user's containers; the previous page stays on screen while the next loads. */
export function useAdminContainers(query: AdminContainerQuery) {
  return useQuery({
    queryKey: containerKeys.admin(query),
    queryFn: ({ signal }) => getAdminContainers(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function adminStartContainer({ id, noGpu }: StartRequest) {
  return api.post<Container>(`${adminPath(id)}/start`, noGpu ? { no_gpu: true } : {});
}

export function adminStopContainer(id: string) {
  return api.post<Container>(`${adminPath(id)}/stop`);
}

export function adminDeleteContainer(id: string) {
  return api.delete<{ ok: boolean }>(adminPath(id));
}

function useAdminCommand<TInput, TResult>(command: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () => queryClient.invalidateQueries({ queryKey: containerKeys.all }),
  });
}

export const useAdminStartContainer = () => useAdminCommand(adminStartContainer);
export const useAdminStopContainer = () => useAdminCommand(adminStopContainer);
export const useAdminDeleteContainer = () => useAdminCommand(adminDeleteContainer);
