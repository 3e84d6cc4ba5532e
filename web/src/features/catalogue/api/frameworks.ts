import type {
  AdminFrameworkList,
  FrameworkInput,
  FrameworkVersion,
  SavedFramework,
  VersionInput,
} from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { catalogueKeys } from '../../../lib/query-keys';
import type { EntityId } from '../../market/types';
import { useCatalogueMutation } from './use-catalogue-mutation';

const id = (value: EntityId) => encodeURIComponent(String(value));

export async function getAdminFrameworks(signal?: AbortSignal) {
  return toList(await api.get<AdminFrameworkList>('/api/admin/frameworks', { signal }));
}

export function useAdminFrameworks() {
  return useQuery({
    queryKey: catalogueKeys.frameworks(),
    queryFn: ({ signal }) => getAdminFrameworks(signal),
  });
}

export const useSaveFramework = () =>
  useCatalogueMutation(({ frameworkId, input }: { frameworkId?: EntityId; input: FrameworkInput }) =>
    frameworkId === undefined
      ? api.post<SavedFramework>('/api/admin/frameworks', input)
      : api.put<SavedFramework>(`/api/admin/frameworks/${id(frameworkId)}`, input),
  );

export const useDeleteFramework = () =>
  useCatalogueMutation((frameworkId: EntityId) =>
    api.delete<{ ok: boolean }>(`/api/admin/frameworks/${id(frameworkId)}`),
  );

export const useSaveVersion = () =>
  useCatalogueMutation(
    ({
      frameworkId,
      versionId,
      input,
    }: {
      frameworkId: EntityId;
      versionId?: EntityId;
      input: VersionInput;
    }) =>
      versionId === undefined
        ? api.post<FrameworkVersion>(`/api/admin/frameworks/${id(frameworkId)}/versions`, input)
        : api.put<FrameworkVersion>(`/api/admin/framework-versions/${id(versionId)}`, input),
  );

export const useDeleteVersion = () =>
  useCatalogueMutation((versionId: EntityId) =>
    api.delete<{ ok: boolean }>(`/api/admin/framework-versions/${id(versionId)}`),
  );
