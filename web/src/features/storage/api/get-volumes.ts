import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { storageKeys } from './query-keys';

export interface VolumeSummary {
  id: number | string;
  name: string;
}

/**
 * The user's storage volumes. The storage module may not be deployed yet: a 404 means
 * "no volumes", any other failure is reported.
 */
export async function getVolumes(signal?: AbortSignal): Promise<VolumeSummary[]> {
  try {
    const data = await api.get<ListResponse<VolumeSummary> | VolumeSummary[] | null>('/api/storage/volumes', {
      signal,
    });
    return toList(data).items;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function useVolumes() {
  return useQuery({ queryKey: storageKeys.volumes(), queryFn: ({ signal }) => getVolumes(signal) });
}
