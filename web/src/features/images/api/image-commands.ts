import type {
  SavedUserImage,
  SaveImageInput,
  UpdateImageInput,
  UserImage,
} from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { imageKeys } from '../../../lib/query-keys';
import { imagePath } from './get-images';

function useImageCommand<TInput, TResult>(command: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () => queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
}

/** 保存镜像: the server answers at once (202) and saves in the background. */
export const useSaveImage = () =>
  useImageCommand(({ containerId, body }: { containerId: string; body: SaveImageInput }) =>
    api.post<SavedUserImage>(`/api/containers/${encodeURIComponent(containerId)}/save-image`, body),
  );

export const useUpdateImage = () =>
  useImageCommand(({ id, body }: { id: number; body: UpdateImageInput }) =>
    api.request<UserImage>('PATCH', imagePath(id), { body }),
  );

export const useDeleteImage = () =>
  useImageCommand((id: number) => api.delete<{ ok: boolean }>(imagePath(id)));
