import type { McpContainerList } from '@gpucloud/control-plane/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { mcpKeys } from '../../../lib/query-keys';
import { pollInterval, type StatusFilter } from '../status';

export async function getMcpContainers(status: StatusFilter, signal?: AbortSignal) {
  const params = status === 'all' ? undefined : { status };
  return toList(await api.get<McpContainerList>('/api/mcp/containers', { params, signal }));
}

export function useMcpContainers(status: StatusFilter) {
  return useQuery({
    queryKey: mcpKeys.containers(status),
    queryFn: ({ signal }) => getMcpContainers(status, signal),
    // The rows of the previous filter stay until the new ones arrive (no empty flash).
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollInterval((query.state.data?.items ?? []).map((c) => c.status)),
  });
}
