import type { OpenApiDocument } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { apiDocsKeys } from '../../../lib/query-keys';

export const OPENAPI_URL = '/api/openapi.json';

/** The control plane's OpenAPI document: public, the same for the life of the server process. */
export async function getOpenApiDocument(signal?: AbortSignal) {
  return api.get<OpenApiDocument>(OPENAPI_URL, { signal, anonymous: true });
}

export function useOpenApiDocument() {
  return useQuery({
    queryKey: apiDocsKeys.document(),
    queryFn: ({ signal }) => getOpenApiDocument(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
