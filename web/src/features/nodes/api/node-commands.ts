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

/** Body of POST /api/admin/nodes/{id}/maintenance: the end (ISO, future) and the reason, both optional. */
export interface MaintenanceBody {
  until?: string;
  reason?: string;
}

function refreshNodesAndMarket(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
    queryClient.invalidateQueries({ queryKey: marketKeys.all }),
  ]);
}

/** 维护: the node leaves the market; its running containers keep running and their owners are told. */
export function useStartMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: GpuNode['id']; body: MaintenanceBody }) =>
      api.post<GpuNode>(`/api/admin/nodes/${encodeURIComponent(String(id))}/maintenance`, body),
    onSettled: () => refreshNodesAndMarket(queryClient),
  });
}

/** 结束维护: offered in the market again. */
export function useEndMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: GpuNode['id']) =>
      api.delete<GpuNode>(`/api/admin/nodes/${encodeURIComponent(String(id))}/maintenance`),
    onSettled: () => refreshNodesAndMarket(queryClient),
  });
}

/** POST /api/admin/nodes/{id}/upgrade → 202: the versions it moves between. */
export interface UpgradeStarted {
  from: { version: string; build: string };
  to: { version: string; build: string };
}

/** 升级: the node's agent moves to the control plane's bundle (it restarts; containers keep running). */
export function useUpgradeNode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: GpuNode['id']) =>
      api.post<UpgradeStarted>(`/api/admin/nodes/${encodeURIComponent(String(id))}/upgrade`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
  });
}
