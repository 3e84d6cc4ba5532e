import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import type { ApiKey } from '../types';
import { apiKeyKeys } from './query-keys';

export async function getApiKeys(signal?: AbortSignal) {
  return toList(await api.get<ListResponse<ApiKey> | ApiKey[]>('/api/api-keys/', { signal }));
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });
}
