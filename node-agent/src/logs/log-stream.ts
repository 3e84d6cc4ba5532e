// StreamLogs: the container's stdout and stderr from Docker (demultiplexed by the client when
// the container has no TTY), from the tail or everything, optionally following.
import type { ContainerService } from '../containers/container-service.js';
import type { OutputStream, StreamHandle } from '../docker/container-client.js';

export const DEFAULT_TAIL_LINES = 200;

export interface LogRequest {
  containerId: string;
  follow: boolean;
  /** 0 = the default (200 lines), negative = everything. */
  tail: number;
  timestamps: boolean;
  sinceUnixMs: number;
}

export async function openLogStream(
  containers: ContainerService,
  request: LogRequest,
  onChunk: (stream: OutputStream, data: Buffer) => void,
): Promise<StreamHandle> {
  const details = await containers.get(request.containerId);
  const tail = request.tail === 0 ? DEFAULT_TAIL_LINES : request.tail < 0 ? 'all' : request.tail;
  return containers.deps.client.streamLogs(
    details.dockerId,
    {
      follow: request.follow,
      tail,
      timestamps: request.timestamps,
      sinceUnixSeconds: request.sinceUnixMs > 0 ? Math.floor(request.sinceUnixMs / 1000) : 0,
    },
    onChunk,
  );
}
