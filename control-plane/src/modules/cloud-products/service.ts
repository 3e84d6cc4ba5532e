import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { KeyedChangeCache } from '../../db/change-cache.js';
import { conflict, notFound } from '../../framework/errors.js';
import { KeptJson } from '../../framework/kept-json.js';
import { yuanToFen } from '../../framework/money.js';
import type { NodeRow, NodeSummary } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import type { AdminProductReply, CloudProductListReply, CloudProductReply } from './contract.js';
import type {
  CloudProductRecord,
  CloudProductRow,
  CloudProductsRepository,
  ProductFilter,
} from './repository.js';
import type { ProductInput } from './schema.js';

/** Live containers per product, from the containers module. */
export interface GpuUsage {
  liveContainersOfProduct(productId: number): Promise<number>;
  /** Framework versions whose image each node holds (the nodes module's warm images). */
  warmVersionIds?(nodeIds: number[]): Promise<Map<number, number[]>>;
}

/** A cloud product as the market shows it (the shape lives in contract.ts). */
export type CloudProductView = CloudProductReply;

/** The product with the facts of its node that the market shows. */
function withNode(p: CloudProductRow, node: NodeSummary): CloudProductRecord {
  return {
    ...p,
    node_status: node.status,
    node_docker_available: node.docker_available,
    node_simulated: node.simulated,
    node_gpu_total: node.gpu_total,
    node_maintenance: node.maintenance_since !== null && node.maintenance_since !== undefined,
  };
}

/**
 * The system filter as the SQL it replaces read it: `windows` only those whose
 * server_config.system_gpu_type is windows, any other value those whose is not (or none).
 */
function systemMatches(p: CloudProductView, systemType: string | undefined): boolean {
  if (!systemType) return true;
  const raw = (p.server_config as Record<string, unknown> | null)?.system_gpu_type;
  const system = raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : JSON.stringify(raw);
  return systemType === 'windows' ? system === 'windows' : system !== 'windows';
}

/**
 * `free`: the node's GPUs that may be rented now (present, healthy, not MIG, fabric ready, not
 * held: NodesService.freeGpuCounts); a failed or vanished GPU is not offered.
 */
export function productView(
  p: CloudProductRecord,
  free: number,
  warmVersionIds: number[] = [],
): CloudProductView {
  const total = p.node_gpu_total;
  const available = Math.max(0, Math.min(total, free));
  const online = p.node_status === 'online' && p.node_docker_available;
  return {
    id: p.id,
    name: p.name,
    region: p.region,
    gpu_type: p.gpu_type,
    gpu_count: `${available}/${total}`,
    gpu_available: available,
    gpu_total: total,
    cpu_model: p.cpu_model,
    cpu_cores: p.cpu_cores,
    memory: p.memory,
    disk_size: p.disk_size,
    price: p.price_fen / 100,
    no_gpu_price: p.no_gpu_price_fen / 100,
    server_config: p.server_config,
    status: online ? 'available' : 'offline',
    node_id: p.node_id,
    simulated: p.node_simulated,
    warm_version_ids: warmVersionIds,
  };
}

/** Filters kept per market list (listReply): the console's few combinations, and then some. */
const MAX_KEPT_FILTERS = 64;

/** The market's products matching the filter (the whole list itself when it filters nothing). */
function filterMarket(
  all: CloudProductView[],
  filter: ProductFilter & { gpuCount?: number | undefined; status?: string | undefined },
): CloudProductView[] {
  const filtered =
    filter.region || filter.gpuTypes?.length || filter.systemType || filter.gpuCount || filter.status;
  if (!filtered) return all;
  const gpuTypes = filter.gpuTypes && filter.gpuTypes.length > 0 ? new Set(filter.gpuTypes) : undefined;
  return all.filter(
    (p) =>
      (!filter.region || p.region === filter.region) &&
      (!gpuTypes || gpuTypes.has(p.gpu_type)) &&
      systemMatches(p, filter.systemType) &&
      (!filter.gpuCount || p.gpu_available >= filter.gpuCount) &&
      (!filter.status || p.status === filter.status),
  );
}

export class CloudProductsService {
  constructor(
    private readonly repo: CloudProductsRepository,
    private readonly nodes: NodesService,
    private readonly agents: AgentPool,
    private readonly usage: GpuUsage,
    /** The market's list between changes (db/change-cache.ts); without it every list reads the database. */
    private readonly market?: KeyedChangeCache<CloudProductView[]>,
  ) {}

  /**
   * The market: enabled products matching the filter, by id. The views are shared with other
   * callers (the cached list): read them, do not change them.
   */
  async list(
    filter: ProductFilter & { gpuCount?: number | undefined; status?: string | undefined },
  ): Promise<CloudProductView[]> {
    return filterMarket(await this.marketList(), filter);
  }

  /** The replies made of each market list (per filter), kept while the list is. */
  private readonly replies = new WeakMap<CloudProductView[], Map<string, KeptJson>>();

  /**
   * GET /api/cloud-products's reply (list's items and their count), made once per filter while
   * the market's list stays the same (the last MAX_KEPT_FILTERS filters asked).
   */
  async listReply(
    filter: ProductFilter & { gpuCount?: number | undefined; status?: string | undefined },
  ): Promise<KeptJson> {
    const all = await this.marketList();
    let kept = this.replies.get(all);
    if (!kept) {
      kept = new Map();
      this.replies.set(all, kept);
    }
    const key = JSON.stringify([
      filter.region ?? '',
      [...(filter.gpuTypes ?? [])].sort(),
      filter.systemType ?? '',
      filter.gpuCount ?? 0,
      filter.status ?? '',
    ]);
    let reply = kept.get(key);
    if (!reply) {
      const items = filterMarket(all, filter);
      reply = new KeptJson({ items, total: items.length } satisfies CloudProductListReply);
      kept.set(key, reply);
      if (kept.size > MAX_KEPT_FILTERS) kept.delete(kept.keys().next().value as string);
    }
    return reply;
  }

  private marketList(): Promise<CloudProductView[]> {
    return this.market ? this.market.get('market', () => this.loadMarket()) : this.loadMarket();
  }

  /**
   * Every enabled product with its node's facts, free GPUs and warm images, by id. A node in
   * maintenance (维护中) is not offered: its products are left out.
   */
  private async loadMarket(): Promise<CloudProductView[]> {
    const records = await this.repo.list({}).then((rows) => this.withNodes(rows));
    const rows = records.filter((r) => !r.node.maintenance_since).map((r) => r.product);
    const nodeIds = [...new Set(rows.map((r) => r.node_id))];
    const [counts, warm] = await Promise.all([this.nodes.freeGpuCounts(nodeIds), this.warm(nodeIds)]);
    return rows.map((r) => productView(r, counts.get(r.node_id) ?? 0, warm.get(r.node_id)));
  }

  async get(id: number): Promise<CloudProductView> {
    const row = await this.find(id);
    if (!row?.enabled) throw notFound('服务器不存在');
    const [counts, warm] = await Promise.all([
      this.nodes.freeGpuCounts([row.node_id]),
      this.warm([row.node_id]),
    ]);
    const view = productView(row, counts.get(row.node_id) ?? 0, warm.get(row.node_id));
    // A node in maintenance sells nothing: its product page says so (not available).
    return row.node_maintenance
      ? { ...view, status: 'offline', gpu_available: 0, gpu_count: `0/${view.gpu_total}` }
      : view;
  }

  /**
   * The products with their nodes (from the nodes module), in order. As the SQL join this
   * replaces, a product whose node is gone is left out.
   */
  private async withNodes(
    rows: CloudProductRow[],
  ): Promise<{ product: CloudProductRecord; node: NodeSummary }[]> {
    const nodes = await this.nodes.summaries(rows.map((r) => r.node_id));
    return rows.flatMap((row) => {
      const node = nodes.get(row.node_id);
      return node ? [{ product: withNode(row, node), node }] : [];
    });
  }

  /** The product (enabled or not) with its node's facts; undefined when either is gone. */
  private async find(id: number): Promise<CloudProductRecord | undefined> {
    const row = await this.repo.find(id);
    return row ? (await this.withNodes([row]))[0]?.product : undefined;
  }

  private async warm(nodeIds: number[]): Promise<Map<number, number[]>> {
    return (await this.usage.warmVersionIds?.([...new Set(nodeIds)])) ?? new Map();
  }

  /** The product with its node, for a purchase. */
  async forPurchase(id: number): Promise<{ product: CloudProductRecord; node: NodeRow }> {
    const row = await this.repo.find(id);
    if (!row?.enabled) throw notFound('服务器不存在');
    const node = await this.nodes.find(row.node_id);
    if (!node) throw notFound('服务器不存在');
    return { product: withNode(row, node), node };
  }

  regions(): Promise<string[]> {
    return this.repo.regions();
  }

  gpuTypes(): Promise<string[]> {
    return this.repo.gpuTypes();
  }

  /** Host ports in use on the product's node, as its agent reports them. */
  async occupiedPorts(id: number): Promise<number[]> {
    const { node } = await this.forPurchase(id);
    try {
      return await this.agents.get(node).listOccupiedPorts();
    } catch (err) {
      throw agentError(err, '获取端口列表失败');
    }
  }

  // ------------------------------------------------------------------ administration

  async adminList(): Promise<AdminProductReply[]> {
    const rows = await this.repo.listAll().then((all) => this.withNodes(all));
    const counts = await this.nodes.freeGpuCounts(rows.map((r) => r.product.node_id));
    return rows.map(({ product, node }) => ({
      ...productView(product, counts.get(product.node_id) ?? 0),
      enabled: product.enabled,
      node_name: node.name,
    }));
  }

  private async row(input: ProductInput): Promise<Omit<CloudProductRow, 'id'>> {
    await this.nodes.require(input.node_id);
    return {
      node_id: input.node_id,
      name: input.name,
      region: input.region,
      gpu_type: input.gpu_type,
      price_fen: yuanToFen(input.price),
      no_gpu_price_fen: yuanToFen(input.no_gpu_price),
      cpu_model: input.cpu_model,
      cpu_cores: input.cpu_cores,
      memory: input.memory,
      disk_size: input.disk_size,
      server_config: input.server_config,
      enabled: input.enabled,
    };
  }

  async create(input: ProductInput): Promise<AdminProductReply> {
    const id = await this.repo.insert(await this.row(input));
    return this.adminView(id);
  }

  async update(id: number, input: ProductInput): Promise<AdminProductReply> {
    if (!(await this.find(id))) throw notFound('服务器不存在');
    await this.repo.update(id, await this.row(input));
    return this.adminView(id);
  }

  async remove(id: number): Promise<void> {
    if (!(await this.find(id))) throw notFound('服务器不存在');
    if ((await this.usage.liveContainersOfProduct(id)) > 0) {
      throw conflict('该服务器仍有容器，请先下架', 'PRODUCT_IN_USE');
    }
    await this.repo.delete(id);
  }

  private async adminView(id: number): Promise<AdminProductReply> {
    const found = (await this.adminList()).find((p) => p.id === id);
    if (!found) throw notFound('服务器不存在');
    return found;
  }

  /** Gives a freshly registered node a default offering when it has none. */
  async ensureDefaultProduct(node: NodeRow, priceFen: number): Promise<void> {
    if ((await this.repo.countForNode(node.id)) > 0) return;
    const info = (node.host_info ?? {}) as Record<string, unknown>;
    const gpuType = (node.gpu_model ?? 'CPU').replace(/^NVIDIA\s+(GeForce\s+)?/i, '');
    await this.repo.insert({
      node_id: node.id,
      name: `${node.region}-${gpuType}-${node.name}`,
      region: node.region,
      gpu_type: gpuType,
      price_fen: priceFen,
      no_gpu_price_fen: Math.max(10, Math.round(priceFen / 10)),
      cpu_model: typeof info.cpuModel === 'string' ? info.cpuModel : '',
      cpu_cores: Number(info.cpuCores ?? 0),
      memory: '32GB',
      disk_size: '200GB NVMe',
      server_config: { system_gpu_type: 'ubuntu' },
    });
  }
}
