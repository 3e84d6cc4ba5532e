import type { AgentEngine } from '../src/agent.js';
import { DockerodeContainerClient } from '../src/docker/dockerode-container-client.js';

/**
 * Docker through `dockerHost`, but without the containers' log files (as for an agent that may not
 * read them, or a log driver other than json-file): logs come through Docker's API.
 */
export function engineWithoutLogFiles(dockerHost: string): AgentEngine {
  const engine = new DockerodeContainerClient({ dockerHost, timeoutMs: 20_000, pullTimeoutMs: 60_000 });
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === 'inspectContainer') {
        return async (ref: string) => {
          const details = await target.inspectContainer(ref);
          if (!details) return details;
          const { log: _log, ...rest } = details;
          return rest;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as AgentEngine;
}
