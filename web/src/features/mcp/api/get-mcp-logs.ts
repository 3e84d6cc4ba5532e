import type { McpLogs } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mcpKeys } from '../../../lib/query-keys';

export async function getMcpLogs(id: string, signal?: AbortSignal): Promise<string> {
  const answer = await api.get<McpLogs>(`/api/mcp/containers/${id}/logs`, { signal });
  return answer.logs;
}

/** The recent log of one container, read when its dialog opens (and on 刷新). */
export function useMcpLogs(id: string | null) {
  return useQuery({
    queryKey: mcpKeys.logs(id ?? ''),
    queryFn: ({ signal }) => getMcpLogs(id as string, signal),
    enabled: id !== null,
    gcTime: 0,
  });
}
