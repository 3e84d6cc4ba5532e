// Every timer of the control plane, on one scheduler: settlement and the container lifecycle
// (queue jobs shared by the replicas; off with BILLING_JOBS=0) and the node monitor (each
// replica follows every node). Each job calls module services through the narrow interfaces it
// declares; platform.ts builds them here.
import { hostname } from 'node:os';
import { DEFAULT_METERING_INTERVAL_MS } from '../billing-settings.js';
import type { Config } from '../config.js';
import { DEFAULT_LEASE_MS } from '../modules/containers/status.js';
import { GPU_SAMPLE_BUCKET_MS } from '../modules/nodes/service.js';
import type { buildServices } from '../platform.js';
import { CertificateRenewalJob } from './certificate-renewal.js';
import { ContainerLifecycleJobs } from './container-lifecycle.js';
import { NodeMonitor } from './node-monitor.js';
import { scheduleProvisioningRecovery } from './provisioning-recovery.js';
import { Scheduler } from './scheduler.js';
import { SettlementJob } from './settlement.js';
import { scheduleVolumeDeletionRecovery } from './volume-deletion-recovery.js';

type Services = ReturnType<typeof buildServices>;

/** How often agent certificates are checked for renewal (those with less than 30 days left). */
const CERTIFICATE_RENEWAL_INTERVAL_MS = 3600_000;
type Log = (message: string, err?: unknown) => void;

/** The system acting on containers (stops at zero balance or expiry, releases). */
const SYSTEM = { id: 0, username: 'system', nickname: null, isAdmin: true };

export function buildJobs(services: Services, config: Config, log: Log) {
  const intervalMs = config.meteringIntervalMs ?? DEFAULT_METERING_INTERVAL_MS;
  const scheduler = new Scheduler({
    databaseUrl: config.databaseUrl,
    log,
    pollingIntervalSeconds: Math.max(0.5, Math.min(2, intervalMs / 2000)),
  });
  const { billing, containers } = services;
  let settlement: SettlementJob | undefined;
  if (config.billingJobs !== false) {
    const lifecycle = new ContainerLifecycleJobs(scheduler, {
      containers: {
        ...containers.lifecycle,
        stop: async (id) => void (await containers.stop(SYSTEM, id, { admin: true })),
        destroy: (id) => containers.destroy(SYSTEM, id, { admin: true }),
      },
      balances: billing.account,
      notices: billing.notices,
      settings: config,
    });
    settlement = new SettlementJob(scheduler, {
      metering: billing.metering,
      runs: billing.settlementRuns,
      payments: billing.payments,
      lifecycle,
      intervalMs,
      replica: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
      log,
      timed: services.metrics.settlementTimed,
    });
  }
  // A quarter of the lease: an abandoned purchase is taken over soon after its lease runs out.
  scheduleProvisioningRecovery(scheduler, {
    purchases: services.purchases,
    intervalMs: Math.max(1000, (config.leaseMs ?? DEFAULT_LEASE_MS) / 4),
  });
  scheduleVolumeDeletionRecovery(scheduler, {
    deletions: services.storage.deletions,
    intervalMs: Math.max(1000, (config.leaseMs ?? DEFAULT_LEASE_MS) / 4),
  });
  const monitor = new NodeMonitor(scheduler, services.nodes, containers, services.agents, {
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    offlineAfterMs: config.nodeOfflineAfterMs,
    syncIntervalMs: config.monitorSyncIntervalMs,
    gpuSampleIntervalMs: GPU_SAMPLE_BUCKET_MS,
    inventoryIntervalMs: config.gpuInventoryIntervalMs ?? 30_000,
    images: services.nodeImages,
    notices: billing.notices,
    upgrades: services.fleet.upgrades,
    log,
  });
  // A node that just joined is followed as soon as its agent answers (modules/fleet/newcomers.ts).
  services.fleet.newcomers.onConnected((nodeId) => monitor.connectNow(nodeId));
  // A queue job like settlement's: with BILLING_JOBS=false another replica runs it.
  if (config.billingJobs !== false) {
    new CertificateRenewalJob(scheduler, {
      renewal: services.fleet.renewal,
      intervalMs: CERTIFICATE_RENEWAL_INTERVAL_MS,
    });
  }
  return {
    /** Undefined with BILLING_JOBS=0 (tests that settle by hand still have it: see settle). */
    settlement,
    monitor,
    start: () => scheduler.start(),
    /** Jobs waiting in each queue (the metrics read it at each scrape). */
    queueDepths: () => scheduler.queueDepths(),
    async stop() {
      await monitor.stop();
      await scheduler.stop();
    },
  };
}

export type Jobs = ReturnType<typeof buildJobs>;
