import { useMutation, useQueryClient } from '@tanstack/react-query';
import { appKeys, catalogueKeys, marketKeys } from '../../../lib/query-keys';

/** A catalogue change also changes what the app market and the instance market show. */
export function useCatalogueMutation<TInput, TResult>(command: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: command,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogueKeys.all }),
        queryClient.invalidateQueries({ queryKey: marketKeys.all }),
        queryClient.invalidateQueries({ queryKey: appKeys.all }),
      ]),
  });
}
