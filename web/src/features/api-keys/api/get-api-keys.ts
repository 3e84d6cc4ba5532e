import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { type ListResponse, toList } from '../../../lib/list';
import { apiKeyKeys } from '../../../lib/query-keys';
import type { ApiKey } from '../types';

export async function getApiKeys(signal?: AbortSignal) {
  return toList(await api.get<ListResponse<ApiKey> | ApiKey[]>('/api/api-keys/', { signal }));
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });
}
