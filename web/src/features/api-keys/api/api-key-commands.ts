import type { ApiKey, RevealedApiKey } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { apiKeyKeys } from '../../../lib/query-keys';

export const createApiKey = (name: string) => api.post<ApiKey>('/api/api-keys/', { name });
/** The full key: the server asks for the current password again. */
export const revealApiKey = (id: number, password: string) =>
  api.post<RevealedApiKey>(`/api/api-keys/${id}/reveal`, { password });
export const deleteApiKey = (id: number) => api.delete<{ ok: boolean }>(`/api/api-keys/${id}`);

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
