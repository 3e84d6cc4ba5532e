import type { AdminProduct, AdminProductList, ProductInput } from '@gpucloud/control-plane/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { catalogueKeys } from '../../../lib/query-keys';
import type { EntityId } from '../../market/types';
import { useCatalogueMutation } from './use-catalogue-mutation';

const path = (productId: EntityId) => `/api/admin/products/${encodeURIComponent(String(productId))}`;

export async function getAdminProducts(signal?: AbortSignal) {
  return toList(await api.get<AdminProductList>('/api/admin/products', { signal }));
}

export function useAdminProducts() {
  return useQuery({ queryKey: catalogueKeys.products(), queryFn: ({ signal }) => getAdminProducts(signal) });
}

export const useSaveProduct = () =>
  useCatalogueMutation(({ productId, input }: { productId?: EntityId; input: ProductInput }) =>
    productId === undefined
      ? api.post<AdminProduct>('/api/admin/products', input)
      : api.put<AdminProduct>(path(productId), input),
  );

export const useDeleteProduct = () =>
  useCatalogueMutation((productId: EntityId) => api.delete<{ ok: boolean }>(path(productId)));
