import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { buildAccounts, containerSummaries } from './accounts.js';
import { AgentPool } from './agents/agent-pool.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { ChangeFeed, KeyedChangeCache, REPLY_CHANNELS } from './db/change-cache.js';
import { createKnex, migrateLatest } from './db/knex.js';
import { SecretBox } from './framework/secret-box.js';
import { buildJobs, type Jobs } from './jobs/index.js';
import { ControlPlaneMetrics } from './metrics/control-plane-metrics.js';
import { listenForScrapes } from './metrics/metrics-listener.js';
import { AppsService } from './modules/apps/service.js';
import { buildBilling } from './modules/billing/build.js';
import { CatalogueRepository } from './modules/catalogue/repository.js';
import { seedCatalogue } from './modules/catalogue/seed.js';
import { CatalogueService } from './modules/catalogue/service.js';
import { CloudProductsRepository } from './modules/cloud-products/repository.js';
import { CloudProductsService, type CloudProductView } from './modules/cloud-products/service.js';
import { Allocator } from './modules/containers/allocator.js';
import { ContainerChanges } from './modules/containers/changes.js';
import { ContainerConfigService } from './modules/containers/config-service.js';
import { containersForBilling } from './modules/containers/for-billing.js';
import { ContainersForImagesRepository } from './modules/containers/for-images-repository.js';
import { ContainerGpuSamples } from './modules/containers/gpu-samples.js';
import { ContainerGpuSamplesRepository } from './modules/containers/gpu-samples-repository.js';
import { PurchaseRequestsRepository } from './modules/containers/purchase-requests-repository.js';
import { PurchaseService } from './modules/containers/purchase-service.js';
import { ContainersRepository } from './modules/containers/repository.js';
import { ContainersService } from './modules/containers/service.js';
import { agentBundle } from './modules/fleet/bundle.js';
import { JoinService } from './modules/fleet/join.js';
import { JoinRepository } from './modules/fleet/join-repository.js';
import { NewcomerWatch } from './modules/fleet/newcomers.js';
import { PlatformPki } from './modules/fleet/pki.js';
import { CertificateRenewal } from './modules/fleet/renewal.js';
import { UpgradeService } from './modules/fleet/upgrade.js';
import { createRegistry, type PlatformRegistry, tokenRealm } from './modules/images/registry-service.js';
import { ImagesRepository } from './modules/images/repository.js';
import { grantToAuth } from './modules/images/save.js';
import { ImagesService } from './modules/images/service.js';
import { McpService } from './modules/mcp/service.js';
import { NodeImagesService } from './modules/nodes/images.js';
import { NodesRepository } from './modules/nodes/repository.js';
import { NodesService } from './modules/nodes/service.js';
import { VolumesRepository } from './modules/storage/repository.js';
import { StorageService } from './modules/storage/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { UsersService } from './modules/users/service.js';

/** How long the API keeps an idle keep-alive connection (above the 60 s of common load balancers). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export type Logger = (message: string, err?: unknown) => void;

export const consoleLogger: Logger = (message, err) => {
  if (err === undefined) console.log(`[control-plane] ${message}`);
  else console.error(`[control-plane] ${message}:`, err instanceof Error ? err.message : err);
};

/** The channels on which the database announces changes of kept replies (for benches and tools). */
export { REPLY_CHANNELS };

/** The whole object graph, built in one place. */
export function buildServices(config: Config, knex: Knex, log: Logger, registry: PlatformRegistry) {
  const secrets = new SecretBox(config.secretKey);
  // Prometheus metrics on a registry of this graph's own (served by app.ts and METRICS_LISTEN).
  const metrics = new ControlPlaneMetrics(log);
  // The platform CA and this replica's client certificate (loaded by startControlPlane): joined
  // nodes are dialled with them; a new client certificate means new channels.
  const joinRepo = new JoinRepository(knex);
  const pki = new PlatformPki({
    store: { read: () => joinRepo.readCa(), insertIfAbsent: (ca) => joinRepo.insertCaIfAbsent(ca) },
    secrets,
    log,
  });
  const agents = new AgentPool({
    callTimeoutMs: config.agentCallTimeoutMs,
    tls: config.agentTls,
    platformTls: () => pki.clientCredentials(),
  });
  pki.onClientRenewed(() => agents.platformRenewed());
  const containersRepo = new ContainersRepository(knex);
  // A user's balance and container list, kept between the changes the database announces.
  const replyChanges = new ChangeFeed({
    databaseUrl: config.databaseUrl,
    channels: [REPLY_CHANNELS.balance, REPLY_CHANNELS.containerList, REPLY_CHANNELS.market],
    name: 'the reply change listener',
    log,
  });
  // Money reaches users and messages through their services (built below, called later).
  const billing = buildBilling({
    settings: config,
    knex,
    notifier: { sendNotice: (p) => accounts.messages.sendNotice(p) },
    users: {
      usernames: (ids) => users.usernames(ids),
      idsMatching: (fragment) => users.idsMatching(fragment),
      byUsernames: (names) => users.byUsernames(names),
      contact: (id) => users.contact(id),
    },
    containers: containersForBilling(containersRepo),
    log,
    balanceCache: new KeyedChangeCache(replyChanges, REPLY_CHANNELS.balance),
  });
  const users = new UsersService(new UsersRepository(knex), {
    hooks: { created: (user, trx) => billing.account.grantTrialCredit(trx, user.id) },
    balances: { balancesFen: (ids) => billing.ledger.balances(ids) },
    // A disabled user, a revoked admin right: no replica goes on trusting a cached session.
    access: { changed: (userId) => accounts.auth.userChanged(userId) },
  });
  const accounts = buildAccounts({
    config,
    knex,
    users,
    secrets,
    log,
    containersOf: (userId) => containerSummaries(containers, userId),
    ordersOf: async (userId) => (await billing.orders.list(userId, { offset: 0, limit: 50 })).items,
  });
  const { auth } = accounts;
  const containerChanges = new ContainerChanges(config.databaseUrl, log);
  const volumesRepo = new VolumesRepository(knex);
  const nodesRepo = new NodesRepository(knex);
  const nodes = new NodesService(
    nodesRepo,
    agents,
    {
      heldGpus: (nodeIds) => containersRepo.heldGpus(nodeIds),
      activeContainerCount: (nodeId) => containersRepo.activeCount(nodeId),
      volumeCount: (nodeId) => volumesRepo.countOnNode(nodeId),
      containersOn: (nodeIds) => containersRepo.liveOnNodes(nodeIds),
      volumesOn: (nodeId) => volumesRepo.onNode(nodeId),
    },
    {
      // Maintenance notices reach owners as billing's do (the messages module, by contact).
      notices: {
        send: async (userId, subject, text) => {
          const contact = await users.contact(userId);
          if (contact) await accounts.messages.sendNotice({ ...contact, subject, text });
        },
      },
      log,
    },
  );
  const storage = new StorageService({
    repo: volumesRepo,
    uses: (volumeIds) => containersRepo.volumeUses(volumeIds),
    nodes,
    agents,
    quotaBytes: config.storageQuotaGb * 1024 ** 3,
    leaseMs: config.leaseMs,
    log,
  });
  const catalogueRepo = new CatalogueRepository(knex);
  const catalogue = new CatalogueService(catalogueRepo, {
    liveContainersOfVersions: (versionIds) => containersRepo.liveCount({ versionIds }),
  });
  const nodeImages = new NodeImagesService({
    repo: nodesRepo,
    agents,
    nodes,
    catalogue,
    // A warm-up of a catalogue version published from a saved image pulls with a grant for it.
    pullAuth: async (image) => {
      const grant = await images.publishedReferenceGrant(image);
      return grant && grantToAuth(grant);
    },
    log,
  });
  // The market's list, one reply for every user (announcements carry no keys).
  const marketCache = new KeyedChangeCache<CloudProductView[]>(replyChanges, REPLY_CHANNELS.market, 1);
  const products = new CloudProductsService(
    new CloudProductsRepository(knex),
    nodes,
    agents,
    {
      liveContainersOfProduct: (productId) => containersRepo.liveCount({ productId }),
      warmVersionIds: (nodeIds) => nodeImages.warmVersionIds(nodeIds),
    },
    marketCache,
  );
  const allocator = new Allocator(containersRepo, nodes);
  const containers = new ContainersService({
    leaseMs: config.leaseMs,
    repo: containersRepo,
    allocator,
    nodes,
    users,
    agents,
    secrets,
    storage,
    log,
    billing: billing.containerHooks,
    gpuSamples: new ContainerGpuSamples({ repo: new ContainerGpuSamplesRepository(knex), nodes, log }),
    changes: containerChanges,
    listCache: new KeyedChangeCache(replyChanges, REPLY_CHANNELS.containerList),
  });
  const containersForImages = new ContainersForImagesRepository(knex);
  const images = new ImagesService({
    repo: new ImagesRepository(knex),
    registry: () => (registry.status === 'off' ? undefined : registry),
    containers,
    imageUses: (ids) => containersForImages.imageUses(ids),
    liveContainers: (ids) => containersForImages.liveIds(ids),
    catalogue,
    nodes,
    users,
    agents,
    quota: {
      maxCount: config.imageQuotaCount ?? 10,
      maxBytes: (config.imageQuotaGb ?? 50) * 1024 ** 3,
    },
    leaseMs: config.leaseMs ?? 60_000,
    log,
  });
  const purchases = new PurchaseService({
    customImages: images,
    imageLinks: containersForImages,
    repo: containersRepo,
    requests: new PurchaseRequestsRepository(knex),
    allocator,
    products,
    catalogue,
    users,
    agents,
    secrets,
    storage,
    log,
    billing: billing.containerHooks,
    images: nodeImages,
    nodes,
    leaseMs: config.leaseMs,
    outcomes: metrics.purchaseOutcomes,
  });
  // Read at each scrape, through the modules that own the rows.
  metrics.readFleet({
    containersByStatus: () => containers.countByStatus(),
    heartbeatLags: () => nodes.heartbeatLags(),
  });
  const apps = new AppsService(catalogue, products, purchases);
  const newcomers = new NewcomerWatch({ agents, nodes, log });
  const fleet = {
    pki,
    newcomers,
    // 升级: the agent bundle of this control plane, streamed to a node (fleet/upgrade.ts).
    upgrades: new UpgradeService({ agents, nodes, bundle: agentBundle, log }),
    join: new JoinService({
      repo: joinRepo,
      pki,
      nodes,
      limiter: accounts.limiter,
      publicUrl: config.publicUrl,
      newcomers,
      log,
    }),
    renewal: new CertificateRenewal({ nodes, agents, pki, log }),
  };
  const containerConfig = new ContainerConfigService({
    repo: containersRepo,
    containers,
    allocator,
    agents,
    secrets,
    storage,
  });
  const mcp = new McpService({
    containers,
    purchases,
    containerConfig,
    catalogue,
    products,
    agents,
    balances: billing.account,
    images,
  });
  return {
    agents,
    fleet,
    containerChanges,
    marketCache,
    replyChanges,
    users,
    auth,
    accounts,
    nodes,
    nodeImages,
    catalogue,
    catalogueRepo,
    products,
    containers,
    purchases,
    containerConfig,
    apps,
    storage,
    billing,
    mcp,
    registry,
    images,
    metrics,
  };
}

export interface RunningControlPlane {
  port: number;
  url: string;
  knex: Knex;
  services: ReturnType<typeof buildServices>;
  /** Every timer: settlement, the container lifecycle, the node monitor (src/jobs). */
  jobs: Jobs;
  /** The admin password when this start generated it. */
  generatedAdminPassword: string | undefined;
  /** Where METRICS_LISTEN serves /metrics (its port bound); undefined without it. */
  metricsUrl: string | undefined;
  close(): Promise<void>;
}

/** Migrates, seeds, registers the bootstrap node, serves HTTP and follows the nodes. */
export async function startControlPlane(
  config: Config,
  log: Logger = consoleLogger,
): Promise<RunningControlPlane> {
  const knex = createKnex(config.databaseUrl);
  await migrateLatest(knex);
  // The image registry (embedded, external or off); the embedded one starts once the API listens.
  const registry = await createRegistry({ settings: config.registry, secretKey: config.secretKey, log });
  const services = buildServices(config, knex, log, registry);
  await seedCatalogue(services.catalogueRepo);
  // Saves a stopped process left half-done (their lease ran out) end as failed.
  await services.images.recoverAbandoned();
  const { generatedPassword } = await services.users.ensureAdmin(config.adminUsername, config.adminPassword);
  // The platform CA (made by the first replica) and this replica's client certificate.
  await services.fleet.pki.start();

  if (config.bootstrapNode) {
    const b = config.bootstrapNode;
    try {
      const node = await services.nodes.upsert({
        name: b.name,
        address: b.address,
        token: b.token,
        region: b.region,
        publicHost: b.publicHost,
      });
      await services.products.ensureDefaultProduct(node, 199);
      log(`node ${b.name} (${b.address}) registered`);
    } catch (err) {
      log(`could not register node ${b.name} at ${b.address}`, err);
    }
  }

  // Without it status requests still wait, re-reading every second.
  await services.containerChanges
    .start()
    .catch((err) => log('container changes are not announced (LISTEN failed)', err));
  // Balances, container lists and the market's list are kept only while their changes are heard
  // (a failure only logs).
  await services.replyChanges
    .start()
    .catch((err) =>
      log('reply changes are not heard (LISTEN failed): balances, lists and the market are not kept', err),
    );
  // Sessions are cached only while revocations are heard (a failure only logs: nothing is cached).
  await services.accounts.revocations.start();
  const app = createApp({
    ...services,
    webDist: config.webDist,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    metricsToken: config.metricsToken,
    log,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  // An idle keep-alive connection is closed by the side whose timer ends first; a client that
  // reuses it at that moment gets ECONNRESET. Clients (browsers, undici, load balancers at 60 s)
  // give up on idle connections well before this, so the server never closes one under them.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  const port = (server.address() as AddressInfo).port;
  await registry.start(tokenRealm(config.host, port));
  if (registry.status === 'embedded') log(`image registry on ${registry.host}`);
  const jobs = buildJobs(services, config, log);
  services.metrics.readQueues(jobs);
  await jobs.start();
  const metricsListener = config.metricsListen
    ? await listenForScrapes(config.metricsListen, services.metrics, config.metricsToken)
    : undefined;
  if (metricsListener) log(`metrics on ${metricsListener.url}`);
  if (config.metricsToken) log('metrics on /metrics of the API port (METRICS_TOKEN)');
  if (!metricsListener && !config.metricsToken)
    log('metrics are not served: set METRICS_TOKEN or METRICS_LISTEN');
  if (services.billing.payments.providerKind === 'sandbox') {
    log(
      'WeChat Pay is not configured: top-ups use the sandbox payment page (set WECHAT_PAY_* for real payments)',
    );
  }

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    knex,
    services,
    generatedAdminPassword: generatedPassword,
    metricsUrl: metricsListener?.url,
    jobs,
    async close() {
      await metricsListener?.close();
      await jobs.stop();
      services.fleet.newcomers.stop();
      services.fleet.pki.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      // Purchases being provisioned finish with the database they write to.
      await services.purchases.settled();
      await services.images.stop();
      await services.nodeImages.settled();
      // Volume deletes go on on their nodes; the next process takes them over at once.
      await services.storage.deletions.stop();
      services.agents.close();
      await services.containerChanges.close();
      await services.replyChanges.close();
      await services.accounts.revocations.close();
      await services.registry.close();
      await knex.destroy();
    },
  };
}
