import type { Container, ContainerList } from '@gpucloud/control-plane/api';
import type { ApiClient } from './api-client.js';
import { CliError } from './errors.js';
import type { Messages } from './i18n.js';

/** The platform's container ids (control-plane framework/validate.ts CONTAINER_ID_PATTERN). */
export const CONTAINER_ID = /^c-[a-z0-9]{6,24}$/;

/**
 * The caller's container by id or by name. An id that is not among the caller's containers is
 * asked for directly, so a foreign or deleted one gets the API's own answer (404 容器不存在).
 */
export async function findContainer(api: ApiClient, ref: string, msg: Messages): Promise<Container> {
  const { items } = await api.get<ContainerList>('/api/containers');
  const byId = items.find((c) => c.container_id === ref);
  if (byId) return byId;
  const named = items.filter((c) => c.name === ref);
  if (named.length === 1) return named[0] as Container;
  if (named.length > 1)
    throw new CliError(
      msg.ambiguousContainer(
        ref,
        named.map((c) => c.container_id),
      ),
    );
  if (CONTAINER_ID.test(ref)) return api.get<Container>(`/api/containers/${ref}`);
  throw new CliError(msg.noSuchContainer(ref));
}
