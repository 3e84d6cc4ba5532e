// One WatchEvents stream: heartbeats, container events from Docker's event stream (labelled
// containers only), GPU samples when asked, and reconciler reports. `stop()` ends every source.
import type {
  ContainerClient,
  ContainerStateName,
  EngineEvent,
  StreamHandle,
} from '../docker/container-client.js';
import { containerName, LABELS, MANAGED_FILTER } from '../docker/labels.js';
import { errorMessage } from '../errors.js';
import type { GpuDevice, GpuProbe } from '../gpu/gpu-probe.js';
import type { ReconcileReport, Reconciler } from '../reconcile/reconciler.js';

export type WatchEvent =
  | { kind: 'heartbeat'; timeUnixMs: number; dockerAvailable: boolean; runningContainers: number }
  | {
      kind: 'container';
      containerId: string;
      action: string;
      state: ContainerStateName;
      exitCode: number;
      timeUnixMs: number;
    }
  | { kind: 'gpuSample'; timeUnixMs: number; gpus: GpuDevice[] }
  | ({ kind: 'reconcile' } & ReconcileReport);

export interface WatchOptions {
  heartbeatIntervalMs: number;
  /** 0 = no samples. */
  gpuSampleIntervalMs: number;
  /** Wait before subscribing to Docker's events again after the stream broke. */
  resubscribeDelayMs?: number;
}

export interface WatchDeps {
  client: ContainerClient;
  gpus: GpuProbe;
  reconciler: Reconciler;
  log: (line: string) => void;
}

/** Docker actions worth telling the control plane, with the state they leave the container in. */
const ACTION_STATES: Record<string, ContainerStateName> = {
  create: 'created',
  start: 'running',
  restart: 'running',
  unpause: 'running',
  pause: 'paused',
  die: 'exited',
  stop: 'exited',
  kill: 'unknown',
  oom: 'unknown',
  destroy: 'not_found',
  health_status: 'unknown',
  update: 'unknown',
};

/** Maps an engine event; undefined for events the control plane has no use for. */
export function containerEventFrom(
  event: EngineEvent,
): Extract<WatchEvent, { kind: 'container' }> | undefined {
  const action = event.action.split(':')[0]!.trim(); // "health_status: healthy"
  const state = ACTION_STATES[action];
  const containerId = event.labels[LABELS.containerId];
  if (!state || !containerId) return undefined;
  // A container parked during a reconfigure carries the same id; its events are not the container's.
  if (event.labels.name && event.labels.name !== containerName(containerId)) return undefined;
  return {
    kind: 'container',
    containerId,
    action,
    state,
    exitCode: event.exitCode,
    timeUnixMs: event.timeUnixMs,
  };
}

export function watchEvents(
  deps: WatchDeps,
  options: WatchOptions,
  emit: (event: WatchEvent) => void,
): () => void {
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  let events: StreamHandle | undefined;

  const heartbeat = async () => {
    let dockerAvailable = true;
    let runningContainers = 0;
    try {
      runningContainers = (await deps.client.listContainers({ all: false, labels: [MANAGED_FILTER] })).length;
    } catch {
      dockerAvailable = false; // that is exactly what the heartbeat reports
    }
    if (!stopped) emit({ kind: 'heartbeat', timeUnixMs: Date.now(), dockerAvailable, runningContainers });
  };

  const sample = async () => {
    try {
      const gpus = await deps.gpus.sample();
      if (!stopped) emit({ kind: 'gpuSample', timeUnixMs: Date.now(), gpus });
    } catch (err) {
      deps.log(`GPU sample failed: ${errorMessage(err)}`);
    }
  };

  const subscribe = async () => {
    if (stopped) return;
    try {
      const handle = await deps.client.streamEvents([MANAGED_FILTER], (event) => {
        const mapped = containerEventFrom(event);
        if (mapped && !stopped) emit(mapped);
      });
      if (stopped) return handle.close();
      events = handle;
      await handle.done;
    } catch (err) {
      if (!stopped) deps.log(`Docker event stream failed: ${errorMessage(err)}`);
    }
    // The stream ended (engine restart, network): subscribe again while the watcher lives.
    if (!stopped) timers.push(setTimeout(() => void subscribe(), options.resubscribeDelayMs ?? 2000));
  };

  void heartbeat();
  timers.push(setInterval(() => void heartbeat(), options.heartbeatIntervalMs));
  if (options.gpuSampleIntervalMs > 0) {
    void sample();
    timers.push(setInterval(() => void sample(), options.gpuSampleIntervalMs));
  }
  void subscribe();
  const unsubscribe = deps.reconciler.subscribe((report) => {
    if (!stopped) emit({ kind: 'reconcile', ...report });
  });

  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    events?.close();
    unsubscribe();
  };
}
