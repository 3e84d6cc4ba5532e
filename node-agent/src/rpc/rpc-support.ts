// What every handler shares: the token check, error → status, and the dependencies.
import * as grpc from '@grpc/grpc-js';
import type { ContainerService } from '../containers/container-service.js';
import { errorMessage } from '../errors.js';
import type { WatchDeps } from '../events/event-watch.js';
import type { HostInfoData } from '../host/host-info.js';
import type { ImageInventoryReader } from '../images/image-inventory.js';
import type { ImageSaver } from '../images/image-saver.js';
import type { OccupiedPorts } from '../ports/occupied-ports.js';
import type { VolumeStore } from '../volumes/volume-store.js';
import { isAuthorized } from './auth.js';
import { isInternal, toServiceError } from './errors.js';

export interface RpcDeps {
  token: string;
  containers: ContainerService;
  volumes: VolumeStore;
  occupiedPorts: OccupiedPorts;
  images: ImageInventoryReader;
  /** SaveImage and RemoveImage. */
  saver: ImageSaver;
  hostInfo: () => Promise<HostInfoData>;
  watch: WatchDeps;
  defaultHeartbeatIntervalMs: number;
  log: (line: string) => void;
  /** Closers of the open streams, run when the agent shuts down. */
  openStreams: Set<() => void>;
  /** After an upgrade was installed: shut down and exit (default: SIGTERM to this process). */
  restartAfterUpgrade?: () => void;
}

/** Registers a stream's closer for shutdown until the call is over. */
export function trackStream(deps: RpcDeps, call: AnyServerStream, closer: () => void): void {
  deps.openStreams.add(closer);
  const forget = () => deps.openStreams.delete(closer);
  call.on('cancelled', forget);
  call.on('close', forget);
  call.on('finish', forget);
}

const UNAUTHENTICATED = {
  code: grpc.status.UNAUTHENTICATED,
  details: '节点令牌无效 (missing or wrong node token: send "authorization: Bearer <token>")',
};

function report(deps: RpcDeps, method: string, err: unknown): Partial<grpc.StatusObject> {
  if (isInternal(err)) deps.log(`${method} failed: ${errorMessage(err)}`);
  return toServiceError(err);
}

/** A unary handler: token check, then the use case; failures become a gRPC status. */
export function unary<Req, Res>(
  deps: RpcDeps,
  method: string,
  fn: (request: Req) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    if (!isAuthorized(call.metadata, deps.token)) {
      callback(UNAUTHENTICATED);
      return;
    }
    fn(call.request).then(
      (response) => callback(null, response),
      (err: unknown) => callback(report(deps, method, err)),
    );
  };
}

type AnyServerStream =
  | grpc.ServerWritableStream<unknown, unknown>
  | grpc.ServerDuplexStream<unknown, unknown>;

/** Ends a stream with the status of `err`. */
export function failStream(deps: RpcDeps, method: string, call: AnyServerStream, err: unknown): void {
  const status = report(deps, method, err);
  call.emit('error', Object.assign(new Error(status.details ?? 'error'), status));
}

/** Streaming handlers run only with a valid token. */
export function authorizedStream<Call extends AnyServerStream>(
  deps: RpcDeps,
  method: string,
  fn: (call: Call) => void,
): (call: Call) => void {
  return (call) => {
    if (!isAuthorized(call.metadata, deps.token)) {
      call.emit('error', Object.assign(new Error(UNAUTHENTICATED.details), UNAUTHENTICATED));
      return;
    }
    try {
      fn(call);
    } catch (err) {
      failStream(deps, method, call, err);
    }
  };
}
