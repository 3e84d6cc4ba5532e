import type { DeployAnswer, DeployPayload } from '@gpucloud/control-plane/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appKeys, containerKeys, marketKeys } from '../../../lib/query-keys';

export interface DeployRequest {
  payload: DeployPayload;
  /** One key per drawer opening, so a repeated click cannot create two instances. */
  idempotencyKey: string;
}

export function deployApp({ payload, idempotencyKey }: DeployRequest) {
  return api.post<DeployAnswer>('/api/apps/deploy', payload, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useDeployApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deployApp,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: containerKeys.all }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
        queryClient.invalidateQueries({ queryKey: [...appKeys.all, 'deploy-quote'] }),
      ]),
  });
}
