import type { StorageInfo, StorageNode, VolumeSummary } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { storageKeys } from '../../../lib/query-keys';

/** The user's volumes, of one node when `nodeId` is given (a mount needs the container's node). */
export function getVolumes(nodeId?: number, signal?: AbortSignal): Promise<VolumeSummary[]> {
  return api.get<VolumeSummary[]>('/api/storage/volumes', {
    signal,
    params: nodeId === undefined ? undefined : { node_id: nodeId },
  });
}

export function useVolumes(nodeId?: number) {
  return useQuery({
    queryKey: storageKeys.volumes(nodeId),
    queryFn: ({ signal }) => getVolumes(nodeId, signal),
  });
}

/** While a volume is being deleted (删除中 n%), the page reads it again this often. */
export const DELETING_POLL_MS = 1000;

/** Usage and volumes; read every second while any volume is 删除中, until it is gone. */
export function useStorageInfo() {
  return useQuery({
    queryKey: storageKeys.info(),
    queryFn: ({ signal }) => api.get<StorageInfo>('/api/storage/info', { signal }),
    refetchInterval: (query) =>
      query.state.data?.volumes.some((v) => v.status === 'deleting') ? DELETING_POLL_MS : false,
  });
}

/** The same, with every volume measured on its node now (the page's 刷新 button). */
export const measureStorageNow = () => api.get<StorageInfo>('/api/storage/info', { params: { refresh: 1 } });

export function useStorageNodes() {
  return useQuery({
    queryKey: storageKeys.nodes(),
    queryFn: ({ signal }) => api.get<StorageNode[]>('/api/storage/nodes', { signal }),
  });
}
