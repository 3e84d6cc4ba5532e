// The control plane's Prometheus metrics, on a registry of its own (built by platform.ts, never
// prom-client's global one). Counted as things happen: HTTP requests by route template, purchases
// by outcome, settlement runs. Read from the database at each scrape (every replica reads the same
// rows: aggregate them with max by (...) rather than sum): containers by status, each node's
// heartbeat lag; and this replica's view of the job queues.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import {
  PURCHASE_OUTCOMES,
  type PurchaseOutcome,
  type PurchaseOutcomes,
} from '../modules/containers/purchase-outcomes.js';

/** What the scrape reads of the fleet, through the modules that own it. */
export interface FleetReadings {
  /** The containers module's: how many are in each status (deleted ones aside). */
  containersByStatus(): Promise<Map<string, number>>;
  /** The nodes module's: how long ago each node's last heartbeat was written. */
  heartbeatLags(): Promise<{ id: number; name: string; lagMs: number | null }[]>;
}

/** The job scheduler's queues (pg-boss), read at each scrape. */
export interface QueueReadings {
  queueDepths(): Promise<{ queue: string; depth: number }[]>;
}

export type HttpLabels = 'method' | 'route' | 'status_class';

type Log = (message: string, err?: unknown) => void;

/** Latencies of an API answer: 1 ms to 10 s (a long poll of a container's status lasts longer). */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A settlement of a large fleet runs for seconds (e2e/bench/settlement.ts). */
const SETTLEMENT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly http: Histogram<HttpLabels>;
  private readonly purchases: Counter<'outcome'>;
  private readonly settlement: Histogram<'outcome'>;
  private readonly readFailures: Counter<'reading'>;
  /** Readings under way (a scrape's failures counter waits for them). */
  private readonly reading = new Set<Promise<unknown>>();
  private fleet: FleetReadings | undefined;
  private queues: QueueReadings | undefined;

  constructor(readonly log: Log) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'gpucloud_http_request_duration_seconds',
      help: 'HTTP requests by method, route template ((unmatched) where no route matched, (console) for the console files) and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.purchases = new Counter({
      name: 'gpucloud_purchases_total',
      help: 'Container purchases by outcome: refused at the request (why), or accepted and then provisioned (ok, failed_start, interrupted, cancelled)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of PURCHASE_OUTCOMES) this.purchases.inc({ outcome }, 0);
    this.settlement = new Histogram({
      name: 'gpucloud_settlement_duration_seconds',
      help: 'Settlements run by this replica (metering, lifecycle checks, stale payments), by outcome',
      labelNames: ['outcome'],
      buckets: SETTLEMENT_BUCKETS,
      registers,
    });
    const metrics = this;
    new Gauge({
      name: 'gpucloud_containers',
      help: 'Containers by platform status (deleted ones aside), read from the database at the scrape',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        const counts = await metrics.read('containers_by_status', () => metrics.fleet?.containersByStatus());
        for (const [status, count] of counts ?? []) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'gpucloud_node_heartbeat_lag_seconds',
      help: "Seconds since each node's last heartbeat was written, read from the database at the scrape",
      labelNames: ['node', 'node_id'],
      registers,
      async collect() {
        this.reset();
        const nodes = await metrics.read('heartbeat_lags', () => metrics.fleet?.heartbeatLags());
        for (const node of nodes ?? []) {
          if (node.lagMs !== null) this.set({ node: node.name, node_id: String(node.id) }, node.lagMs / 1000);
        }
      },
    });
    new Gauge({
      name: 'gpucloud_job_queue_depth',
      help: 'Jobs waiting in each job queue (pg-boss: created or waiting for a retry), read at the scrape',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        const queues = await metrics.read('queue_depths', () => metrics.queues?.queueDepths());
        for (const q of queues ?? []) this.set({ queue: q.queue }, q.depth);
      },
    });
    // Last: a scrape collects the metrics in this order, so the readings above are under way.
    this.readFailures = new Counter({
      name: 'gpucloud_metrics_read_failures_total',
      help: 'Scrapes whose reading of the database or the job queues failed (that reading is left out of the scrape)',
      labelNames: ['reading'],
      registers,
      async collect() {
        // This scrape's failures are in this scrape.
        await Promise.all(metrics.reading);
      },
    });
  }

  /** What the purchase service tells (modules/containers/purchase-outcomes.ts). */
  get purchaseOutcomes(): PurchaseOutcomes {
    return { record: (outcome: PurchaseOutcome) => this.purchases.inc({ outcome }) };
  }

  /** What the settlement job tells after each settlement it ran. */
  readonly settlementTimed = (seconds: number, outcome: 'ok' | 'failed'): void => {
    this.settlement.observe({ outcome }, seconds);
  };

  /** Where the scrape reads containers and nodes (set once the services exist). */
  readFleet(fleet: FleetReadings): void {
    this.fleet = fleet;
  }

  /** Where the scrape reads the job queues (set once the jobs exist). */
  readQueues(queues: QueueReadings): void {
    this.queues = queues;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** A failed reading is logged and counted, and its metric left empty: the rest still scrapes. */
  private read<T>(reading: string, fn: () => Promise<T> | undefined): Promise<T | undefined> {
    const read = (async () => {
      try {
        return await fn();
      } catch (err) {
        this.readFailures.inc({ reading });
        this.log(`metrics: reading ${reading} failed`, err);
        return undefined;
      }
    })();
    this.reading.add(read);
    void read.finally(() => this.reading.delete(read));
    return read;
  }
}
