import type { GpuNode, NewNode } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { marketKeys, nodeKeys } from '../../../lib/query-keys';

export function createNode(node: NewNode) {
  return api.post<GpuNode>('/api/admin/nodes', node);
}

export function deleteNode(id: GpuNode['id']) {
  return api.delete<{ ok: boolean }>(`/api/admin/nodes/${encodeURIComponent(String(id))}`);
}

export function useCreateNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNode,
    // A new node brings new server configurations to the market.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
      ]),
  });
}

export function useDeleteNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNode,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
      ]),
  });
}
