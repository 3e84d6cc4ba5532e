import type { Container, ContainerList, ContainerStatusAnswer } from '@gpucloud/control-plane/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api-client';
import { toList } from '../../../lib/list';
import { containerKeys } from '../../../lib/query-keys';
import { pollInterval, STATUS_POLL_INTERVAL_MS } from '../status';

/** How long the server holds a status request for a change (GET …/status?wait=). */
export const STATUS_WAIT_SECONDS = 5;

export async function getContainers(signal?: AbortSignal) {
  return toList(await api.get<ContainerList>('/api/containers', { signal }));
}

/**
 * The container's status once it differs from `status` (or its pull percentage from
 * `pullProgress`), or after STATUS_WAIT_SECONDS: the server answers the moment it changes.
 */
export function waitForStatusChange(
  id: string,
  status: string,
  pullProgress: number | null | undefined,
  signal?: AbortSignal,
) {
  const query = new URLSearchParams({ while: status, wait: String(STATUS_WAIT_SECONDS) });
  if (status === 'pulling' && pullProgress != null) query.set('progress', String(pullProgress));
  return api.get<ContainerStatusAnswer>(`/api/containers/${encodeURIComponent(id)}/status?${query}`, {
    signal,
  });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Watches each container that is pulling its image or starting: a status request the server
 * holds until it changes, so 运行中 (or the next percentage) shows the moment it happens; then
 * the list is fetched again. A server that answers at once without a change is asked again
 * only after the 5 s poll interval.
 */
function useStatusWatch(items: Container[] | undefined) {
  const queryClient = useQueryClient();
  const watched = (items ?? [])
    .filter((c) => c.status === 'starting' || c.status === 'pulling')
    .map((c) => ({ id: c.container_id, status: String(c.status), progress: c.pull_progress }));
  const key = JSON.stringify(watched);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `watched`
  useEffect(() => {
    if (watched.length === 0) return;
    const abort = new AbortController();
    const watch = async ({ id, status, progress }: (typeof watched)[number]) => {
      while (!abort.signal.aborted) {
        const asked = Date.now();
        try {
          const now = await waitForStatusChange(id, status, progress, abort.signal);
          const changed =
            now.status !== status ||
            (status === 'pulling' && (now.pull_progress ?? null) !== (progress ?? null));
          if (changed) {
            await queryClient.invalidateQueries({ queryKey: containerKeys.list() });
            return;
          }
          if (Date.now() - asked < 1000) await sleep(STATUS_POLL_INTERVAL_MS, abort.signal);
        } catch {
          await sleep(STATUS_POLL_INTERVAL_MS, abort.signal);
        }
      }
    };
    for (const entry of watched) void watch(entry);
    return () => abort.abort();
  }, [key, queryClient]);
}

/**
 * The caller's containers; re-polled every 5 s while one of them is pulling or starting, and
 * at once when one of them changes (useStatusWatch).
 */
export function useContainers() {
  const query = useQuery({
    queryKey: containerKeys.list(),
    queryFn: ({ signal }) => getContainers(signal),
    refetchInterval: (q) => pollInterval(q.state.data?.items.map((c) => c.status) ?? []),
  });
  useStatusWatch(query.data?.items);
  return query;
}
