import type { NewVolume, Volume } from '@gpucloud/control-plane/api';
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

export const useDeleteVolume = () =>
  useStorageMutation((id: number) => api.delete<{ ok: boolean }>(`/api/storage/volumes/${id}`));
