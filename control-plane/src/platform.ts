import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { AgentPool } from './agents/agent-pool.js';
import { NodeMonitor } from './agents/node-monitor.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { createKnex, migrateLatest } from './db/knex.js';
import { SecretBox } from './framework/secret-box.js';
import { SessionsRepository } from './modules/auth/repository.js';
import { AuthService } from './modules/auth/service.js';
import { CatalogueRepository } from './modules/catalogue/repository.js';
import { seedCatalogue } from './modules/catalogue/seed.js';
import { CatalogueService } from './modules/catalogue/service.js';
import { CloudProductsRepository } from './modules/cloud-products/repository.js';
import { CloudProductsService } from './modules/cloud-products/service.js';
import { ContainersRepository } from './modules/containers/repository.js';
import { ContainersService } from './modules/containers/service.js';
import { NodesRepository } from './modules/nodes/repository.js';
import { NodesService } from './modules/nodes/service.js';
import { UsersRepository } from './modules/users/repository.js';
import { UsersService } from './modules/users/service.js';

export type Logger = (message: string, err?: unknown) => void;

export const consoleLogger: Logger = (message, err) => {
  if (err === undefined) console.log(`[control-plane] ${message}`);
  else console.error(`[control-plane] ${message}:`, err instanceof Error ? err.message : err);
};

/** The whole object graph, built in one place. */
export function buildServices(config: Config, knex: Knex, log: Logger) {
  const agents = new AgentPool({ callTimeoutMs: config.agentCallTimeoutMs });
  const secrets = new SecretBox(config.secretKey);
  const users = new UsersService(new UsersRepository());
  const auth = new AuthService(new SessionsRepository(knex), users, config.sessionTtlHours);
  const containersRepo = new ContainersRepository(knex);
  const nodes = new NodesService(new NodesRepository(knex), agents, {
    allocatedGpuIndices: (nodeId) => containersRepo.allocatedGpuIndices(nodeId),
    activeContainerCount: (nodeId) => containersRepo.activeCount(nodeId),
  });
  const catalogueRepo = new CatalogueRepository(knex);
  const catalogue = new CatalogueService(catalogueRepo);
  const products = new CloudProductsService(new CloudProductsRepository(knex), nodes, agents, {
    allocatedGpuCounts: () => containersRepo.allocatedGpuCounts(),
  });
  const containers = new ContainersService({
    knex,
    repo: containersRepo,
    nodes,
    products,
    catalogue,
    users,
    agents,
    secrets,
    log,
  });
  return { agents, users, auth, nodes, catalogue, catalogueRepo, products, containers };
}

export interface RunningControlPlane {
  port: number;
  url: string;
  knex: Knex;
  services: ReturnType<typeof buildServices>;
  /** The admin password when this start generated it. */
  generatedAdminPassword: string | undefined;
  close(): Promise<void>;
}

/** Migrates, seeds, registers the bootstrap node, serves HTTP and follows the nodes. */
export async function startControlPlane(
  config: Config,
  log: Logger = consoleLogger,
): Promise<RunningControlPlane> {
  const knex = createKnex(config.databaseUrl);
  await migrateLatest(knex);
  const services = buildServices(config, knex, log);
  await seedCatalogue(services.catalogueRepo);
  const { generatedPassword } = await services.users.ensureAdmin(config.adminUsername, config.adminPassword);

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

  const app = createApp({ ...services, webDist: config.webDist, log });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const monitor = new NodeMonitor(services.nodes, services.containers, services.agents, {
    heartbeatIntervalMs: 5000,
    offlineAfterMs: config.nodeOfflineAfterMs,
    syncIntervalMs: 10_000,
    log,
  });
  monitor.start();

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    knex,
    services,
    generatedAdminPassword: generatedPassword,
    async close() {
      monitor.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
      services.agents.close();
      await knex.destroy();
    },
  };
}
