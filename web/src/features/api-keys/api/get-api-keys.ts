import type { ApiKeyList } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { apiKeyKeys } from '../../../lib/query-keys';

export async function getApiKeys(signal?: AbortSignal) {
  return toList(await api.get<ApiKeyList>('/api/api-keys/', { signal }));
}

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => getApiKeys(signal) });
}
