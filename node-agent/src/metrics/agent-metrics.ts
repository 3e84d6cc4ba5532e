// The agent's Prometheus metrics, on a registry of its own (built by agent.ts when
// --metrics-listen is set): each GPU (utilisation, memory, temperature, power, and the platform
// container holding it), each managed container (CPU time, memory, restarts), and every Docker
// call's latency by operation. GPUs and containers come from AgentReadings (read at most once per
// interval); Docker calls are counted as they happen (docker/docker-timing.ts).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DockerCallObserver } from '../docker/docker-timing.js';
import type { GpuDevice } from '../gpu/gpu-probe.js';
import type { AgentReadings, Readings } from './readings.js';

const MIB = 1024 * 1024;
/** An inspect takes milliseconds, a create or a pull's first answer seconds. */
const DOCKER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type GpuLabels = 'node' | 'gpu' | 'uuid' | 'model' | 'simulated';
const GPU_LABELS: GpuLabels[] = ['node', 'gpu', 'uuid', 'model', 'simulated'];

export class AgentMetrics {
  readonly registry = new Registry();
  private readonly docker: Histogram<'node' | 'operation' | 'outcome'>;
  private readonly failures: Counter<'node' | 'source'>;
  /** Readings a scrape has seen: a new one's failures are counted once. */
  private readonly counted = new WeakSet<Readings>();
  private readings: AgentReadings | undefined;
  private simulatedGpus = false;

  constructor(private readonly d: { nodeName: string }) {
    const registers = [this.registry];
    const metrics = this;
    collectDefaultMetrics({ register: this.registry });
    this.docker = new Histogram({
      name: 'gpucloud_docker_call_duration_seconds',
      help: 'Docker Engine API calls by operation (dockerode method) and outcome; a call opening a stream is timed until it is open',
      labelNames: ['node', 'operation', 'outcome'],
      buckets: DOCKER_BUCKETS,
      registers,
      async collect() {
        // After this scrape's reading, so the calls it made are in the scrape that caused them.
        await metrics.read();
      },
    });
    const node = d.nodeName;
    const gpuLabels = (gpu: GpuDevice) => ({
      node,
      gpu: String(gpu.index),
      uuid: gpu.uuid,
      model: gpu.model,
      simulated: String(metrics.simulatedGpus),
    });
    const gpuGauge = (name: string, help: string, value: (gpu: GpuDevice) => number) =>
      new Gauge({
        name,
        help,
        labelNames: GPU_LABELS,
        registers,
        async collect() {
          this.reset();
          for (const gpu of (await metrics.read())?.gpus ?? []) this.set(gpuLabels(gpu), value(gpu));
        },
      });
    gpuGauge(
      'gpucloud_gpu_utilization_percent',
      'GPU utilisation (nvidia-smi utilization.gpu)',
      (g) => g.utilizationPercent,
    );
    gpuGauge('gpucloud_gpu_memory_used_bytes', 'GPU memory in use', (g) => g.memoryUsedMib * MIB);
    gpuGauge('gpucloud_gpu_memory_total_bytes', 'GPU memory in all', (g) => g.memoryTotalMib * MIB);
    gpuGauge('gpucloud_gpu_temperature_celsius', 'GPU temperature', (g) => g.temperatureC);
    gpuGauge('gpucloud_gpu_power_draw_watts', 'GPU power draw', (g) => g.powerDrawW);
    new Gauge({
      name: 'gpucloud_gpu_container_info',
      help: 'The platform container holding each GPU (1; none for a free GPU): join on uuid',
      labelNames: ['node', 'gpu', 'uuid', 'container_id'],
      registers,
      async collect() {
        this.reset();
        const reading = await metrics.read();
        for (const gpu of reading?.gpus ?? []) {
          const holder = reading?.holders.get(gpu.uuid);
          if (holder) this.set({ node, gpu: String(gpu.index), uuid: gpu.uuid, container_id: holder }, 1);
        }
      },
    });
    new Counter({
      name: 'gpucloud_container_cpu_seconds_total',
      help: 'CPU time a running managed container has used since it started (docker stats)',
      labelNames: ['node', 'container_id'],
      registers,
      async collect() {
        this.reset();
        for (const c of (await metrics.read())?.containers ?? []) {
          if (c.usage.running) this.inc({ node, container_id: c.containerId }, c.usage.cpuSeconds);
        }
      },
    });
    new Gauge({
      name: 'gpucloud_container_memory_bytes',
      help: 'Memory a running managed container uses, page cache aside (docker stats)',
      labelNames: ['node', 'container_id'],
      registers,
      async collect() {
        this.reset();
        for (const c of (await metrics.read())?.containers ?? []) {
          if (c.usage.running) this.set({ node, container_id: c.containerId }, c.usage.memoryBytes);
        }
      },
    });
    new Counter({
      name: 'gpucloud_container_restarts_total',
      help: 'Times Docker restarted a managed container after it exited (docker inspect RestartCount)',
      labelNames: ['node', 'container_id'],
      registers,
      async collect() {
        this.reset();
        for (const c of (await metrics.read())?.containers ?? []) {
          this.inc({ node, container_id: c.containerId }, c.usage.restartCount);
        }
      },
    });
    new Gauge({
      name: 'gpucloud_agent_metrics_read_timestamp_seconds',
      help: 'When the GPU and container figures of this scrape were read (they are kept for the metrics interval)',
      labelNames: ['node'],
      registers,
      async collect() {
        this.reset();
        const reading = await metrics.read();
        if (reading) this.set({ node }, reading.atMs / 1000);
      },
    });
    this.failures = new Counter({
      name: 'gpucloud_agent_metrics_read_failures_total',
      help: 'Readings whose GPU sample or container usage failed (left out of the scrape; the agent logs why)',
      labelNames: ['node', 'source'],
      registers,
      async collect() {
        // After this scrape's reading, whose failures read() counts.
        await metrics.read();
      },
    });
    for (const source of ['gpus', 'containers']) this.failures.inc({ node, source }, 0);
  }

  /** What agent.ts passes to the Docker client. */
  readonly dockerCalls: DockerCallObserver = (operation, seconds, ok) => {
    this.docker.observe({ node: this.d.nodeName, operation, outcome: ok ? 'ok' : 'error' }, seconds);
  };

  /** Where the GPU and container figures are read (set once the client and the probe exist). */
  readFrom(readings: AgentReadings, simulatedGpus: boolean): void {
    this.readings = readings;
    this.simulatedGpus = simulatedGpus;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async read(): Promise<Readings | undefined> {
    const reading = await this.readings?.read();
    if (reading && !this.counted.has(reading)) {
      this.counted.add(reading);
      for (const source of reading.failures) this.failures.inc({ node: this.d.nodeName, source });
    }
    return reading;
  }
}
