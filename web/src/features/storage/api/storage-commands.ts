import type { NewVolume, StorageInfo, Volume } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { storageKeys } from '../../../lib/query-keys';

function useStorageMutation<T>(fn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: storageKeys.all }),
  });
}

export const useCreateVolume = () =>
  useStorageMutation((input: NewVolume) => api.post<Volume>('/api/storage/volumes', input));

export const useRenameVolume = () =>
  useStorageMutation(({ id, newName }: { id: number; newName: string }) =>
    api.put<Volume>(`/api/storage/volumes/${id}/rename`, { new_name: newName }),
  );

/**
 * 删除: the server answers at once (202) with the volume 删除中; it shows so at once, and the page
 * follows it (useStorageInfo) until the node has deleted it.
 */
export function useDeleteVolume() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<Volume>(`/api/storage/volumes/${id}`),
    onSuccess: (volume) =>
      queryClient.setQueryData<StorageInfo>(storageKeys.info(), (info) =>
        info ? { ...info, volumes: info.volumes.map((v) => (v.id === volume.id ? volume : v)) } : info,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: storageKeys.all }),
  });
}
