import type { PurchaseAnswer, PurchasePayload } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { containerKeys, marketKeys } from '../../../lib/query-keys';
import type { EntityId } from '../types';

export interface PurchaseRequest {
  productId: EntityId;
  payload: PurchasePayload;
  /** One key per dialog opening, so a retried click cannot buy twice. */
  idempotencyKey: string;
}

export function purchaseCloudProduct({ productId, payload, idempotencyKey }: PurchaseRequest) {
  return api.post<PurchaseAnswer>(
    `/api/cloud-products/${encodeURIComponent(String(productId))}/purchase`,
    payload,
    {
      headers: { 'Idempotency-Key': idempotencyKey },
    },
  );
}

export function usePurchaseCloudProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purchaseCloudProduct,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
        queryClient.invalidateQueries({ queryKey: containerKeys.all }),
      ]);
    },
  });
}
