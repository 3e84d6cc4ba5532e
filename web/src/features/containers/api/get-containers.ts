import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { pollInterval } from '../status';
import type { Container } from '../types';
import { containerKeys } from './query-keys';

export async function getContainers(signal?: AbortSignal) {
  return toList(await api.get<ListResponse<Container> | Container[]>('/api/containers', { signal }));
}

/** The caller's containers; re-polled every 5 s while one of them is starting. */
export function useContainers() {
  return useQuery({
    queryKey: containerKeys.list(),
    queryFn: ({ signal }) => getContainers(signal),
    refetchInterval: (query) => pollInterval(query.state.data?.items.map((c) => c.status) ?? []),
  });
}
