import type { McpContainer, McpCreated, McpCreatePayload } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { mcpKeys } from '../../../lib/query-keys';

export const createMcpContainer = (payload: McpCreatePayload) =>
  api.post<McpCreated>('/api/mcp/containers', payload);
export const startMcpContainer = (id: string) => api.post<McpContainer>(`/api/mcp/containers/${id}/start`);
export const stopMcpContainer = (id: string) => api.post<McpContainer>(`/api/mcp/containers/${id}/stop`);
export const deleteMcpContainer = (id: string) => api.delete<{ ok: boolean }>(`/api/mcp/containers/${id}`);
export const resetMcpPassword = ({ id, password }: { id: string; password: string }) =>
  api.post<{ ok: boolean }>(`/api/mcp/containers/${id}/reset-password`, { password });

/** A mutation that refreshes the MCP lists once it settled. */
function useMcpMutation<TVariables, TResult>(fn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: mcpKeys.all }),
  });
}

export const useCreateMcpContainer = () => useMcpMutation(createMcpContainer);
export const useStartMcpContainer = () => useMcpMutation(startMcpContainer);
export const useStopMcpContainer = () => useMcpMutation(stopMcpContainer);
export const useDeleteMcpContainer = () => useMcpMutation(deleteMcpContainer);
export const useResetMcpPassword = () => useMcpMutation(resetMcpPassword);
