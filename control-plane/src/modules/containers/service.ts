import type { ContainerSpec } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { AgentCallError } from '../../agents/agent-client.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest, conflict, notFound, unavailable } from '../../framework/errors.js';
import { newId, newPassword } from '../../framework/ids.js';
import { yuanToFen } from '../../framework/money.js';
import type { SecretBox } from '../../framework/secret-box.js';
import type { CatalogueService, FrameworkVersionView } from '../catalogue/service.js';
import { containerPortsOf } from '../catalogue/service.js';
import type { CloudProductsService } from '../cloud-products/service.js';
import type { NodeRow } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import { BILLING_TYPES, totalPriceFen } from '../pricing/pricing.js';
import { authorizedKeys, type UsersService } from '../users/service.js';
import { agentError } from './agent-errors.js';
import type { ContainerRecord, ContainerStatus, ContainersRepository, PortMapping } from './repository.js';
import type { PurchaseInput } from './schema.js';
import { statusFromAgent } from './status.js';
import { type ContainerView, containerView } from './view.js';

// Namespace of the advisory locks that serialise allocations per node.
const ALLOCATION_LOCK = 7_301;
const GIB = 1024 ** 3;

export interface PurchaseResult {
  container_id: string;
  started: boolean;
  start_error?: string;
}

export interface ContainersDeps {
  knex: Knex;
  repo: ContainersRepository;
  nodes: NodesService;
  products: CloudProductsService;
  catalogue: CatalogueService;
  users: UsersService;
  agents: AgentPool;
  secrets: SecretBox;
  log: (message: string, err?: unknown) => void;
}

function memoryBytes(text: string): number {
  const m = /^(\d+)\s*G/i.exec(text);
  return (m ? Number(m[1]) : 32) * GIB;
}

export class ContainersService {
  constructor(private readonly d: ContainersDeps) {}

  // ------------------------------------------------------------------ queries

  async listForUser(user: AuthUser): Promise<{ items: ContainerView[]; total: number }> {
    const { items, total } = await this.d.repo.list({ userId: user.id, offset: 0, limit: 500 });
    return { items: items.map((c) => containerView(c, this.d.secrets)), total };
  }

  async listAll(filter: {
    page: number;
    size: number;
    username?: string | undefined;
    status?: string | undefined;
  }) {
    const { items, total } = await this.d.repo.list({
      username: filter.username,
      status: filter.status,
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
    });
    return { items: items.map((c) => containerView(c, this.d.secrets)), total };
  }

  /** The container if the actor may see it; a foreign or deleted id is a 404 either way. */
  async require(actor: AuthUser, id: string, opts: { admin?: boolean } = {}): Promise<ContainerRecord> {
    const c = await this.d.repo.find(id);
    if (!c || (!opts.admin && c.user_id !== actor.id) || (c.status === 'deleted' && !opts.admin)) {
      throw notFound('容器不存在');
    }
    return c;
  }

  async get(actor: AuthUser, id: string, opts: { admin?: boolean } = {}): Promise<ContainerView> {
    return containerView(await this.require(actor, id, opts), this.d.secrets);
  }

  // ------------------------------------------------------------------ purchase

  async purchase(user: AuthUser, productId: number, input: PurchaseInput): Promise<PurchaseResult> {
    if (input.billing_type !== 'hourly') throw badRequest('目前仅支持按小时计费', 'BILLING_TYPE_UNSUPPORTED');
    const { product, node } = await this.d.products.forPurchase(productId);
    if (node.status === 'offline') throw unavailable('节点离线，暂时无法创建实例', 'NODE_OFFLINE');
    if (node.status === 'unsafe') throw conflict('节点未通过安全检查，暂不接受 GPU 任务', 'NODE_UNSAFE');

    const version = await this.d.catalogue.version(input.framework, input.frameworkVersion).catch(() => {
      throw badRequest('请选择版本', 'VERSION_NOT_FOUND');
    });
    const windowsServer = product.server_config.system_gpu_type === 'windows';
    if ((version.system_type === 'windows') !== windowsServer) {
      throw badRequest(
        windowsServer ? '该服务器仅支持 Windows 镜像' : 'Windows 镜像仅可用于 Windows 服务器',
        'SYSTEM_TYPE_MISMATCH',
      );
    }
    const billing = BILLING_TYPES[input.billing_type];
    if (input.duration > billing.maxDuration) {
      throw badRequest(`${billing.label}的使用时长最多为${billing.maxDuration}`, 'DURATION_TOO_LONG');
    }
    const expected = totalPriceFen({
      unitPriceFen: product.price_fen,
      gpuCount: input.gpuCount,
      billingType: input.billing_type,
      duration: input.duration,
    });
    let clientFen: number;
    try {
      clientFen = yuanToFen(input.total_price);
    } catch {
      throw badRequest('价格格式不正确', 'PRICE_FORMAT');
    }
    if (clientFen !== expected) throw badRequest('价格已变化，请刷新后重试', 'PRICE_MISMATCH');

    const frameworkPorts = containerPortsOf(version.ports);
    for (const port of input.custom_ports) {
      if (frameworkPorts.some((p) => p.port === port))
        throw badRequest('该端口与框架默认端口重复', 'PORT_FRAMEWORK_CLASH');
    }
    if (input.mounts.length > 0) {
      // Volumes arrive with the storage module; until then no source can be the user's volume.
      throw badRequest(`存储卷 ${input.mounts[0]?.source} 不存在`, 'VOLUME_NOT_FOUND');
    }

    const agent = this.d.agents.get(node);
    let occupied: Set<number>;
    try {
      const host = await agent.getHostInfo(5000);
      if (!host.dockerAvailable) {
        throw unavailable(
          `节点的 Docker 服务不可用${host.dockerError ? `：${host.dockerError}` : ''}`,
          'DOCKER_UNAVAILABLE',
        );
      }
      occupied = new Set(await agent.listOccupiedPorts());
    } catch (err) {
      throw agentError(err, '创建失败');
    }
    for (const port of input.custom_ports) {
      if (occupied.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
    }

    const owner = await this.d.users.findById(user.id);
    if (!owner) throw notFound('用户不存在');
    const id = newId('c');
    const password = newPassword();
    const allocation = await this.allocate({
      id,
      user,
      node,
      productId,
      version,
      input,
      frameworkPorts,
      occupied,
      password,
      gpuType: product.gpu_type,
      priceFen: product.price_fen,
    });

    const spec: ContainerSpec = {
      containerId: id,
      ownerId: String(user.id),
      ownerName: user.username,
      displayName: input.instanceName || id,
      image: version.image,
      gpuDeviceIds: allocation.gpuIndices.map(String),
      ports: allocation.ports.map((p) => ({
        containerPort: p.container_port,
        hostPort: p.host_port,
        name: p.name,
        protocol: 'PROTOCOL_TCP',
      })),
      mounts: [],
      resources: { memoryBytes: String(memoryBytes(product.memory)), pidsLimit: '4096' },
      env: {},
      labels: { 'gpucloud.cloud-product': String(productId) },
    };
    try {
      const info = await agent.createContainer({
        spec,
        rootPassword: password,
        authorizedKeys: authorizedKeys(owner),
        start: true,
      });
      const status = statusFromAgent(info);
      const startError = info.startError || (status === 'running' ? null : '容器未能启动');
      await this.d.repo.update(id, {
        status,
        started_at: status === 'running' ? new Date() : null,
        start_error: startError,
      });
      return status === 'running'
        ? { container_id: id, started: true }
        : { container_id: id, started: false, start_error: startError ?? undefined };
    } catch (err) {
      await this.d.repo.deleteRow(id);
      if (err instanceof AgentCallError && err.unreachable) {
        // The agent may have created it before the answer was lost: remove it, never orphan it.
        agent.removeContainer(id).catch((e) => this.d.log(`cleanup of ${id} on ${node.name} failed`, e));
      }
      throw agentError(err, '创建失败');
    }
  }

  private async allocate(p: {
    id: string;
    user: AuthUser;
    node: NodeRow;
    productId: number;
    version: FrameworkVersionView;
    input: PurchaseInput;
    frameworkPorts: { name: string; port: number }[];
    occupied: Set<number>;
    password: string;
    gpuType: string;
    priceFen: number;
  }): Promise<{ gpuIndices: number[]; ports: PortMapping[] }> {
    const gpus = await this.d.nodes.gpus(p.node.id);
    return this.d.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, ?)', [ALLOCATION_LOCK, p.node.id]);
      const takenGpus = new Set(await this.d.repo.allocatedGpuIndices(p.node.id, trx));
      const free = gpus.map((g) => g.gpu_index).filter((i) => !takenGpus.has(i));
      if (free.length < p.input.gpuCount) {
        throw conflict(`GPU 资源不足，当前可用 ${free.length} 卡`, 'GPU_INSUFFICIENT');
      }
      const gpuIndices = free.slice(0, p.input.gpuCount);

      const takenPorts = new Set(await this.d.repo.allocatedPorts(p.node.id, trx));
      for (const port of p.input.custom_ports) {
        if (takenPorts.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
      }
      const blocked = new Set([...takenPorts, ...p.occupied, ...p.input.custom_ports]);
      const ports: PortMapping[] = [];
      let candidate = p.node.port_range_start;
      for (const fp of p.frameworkPorts) {
        while (candidate <= p.node.port_range_end && blocked.has(candidate)) candidate++;
        if (candidate > p.node.port_range_end) throw conflict('节点端口已用尽', 'PORTS_EXHAUSTED');
        ports.push({ name: fp.name, container_port: fp.port, host_port: candidate, custom: false });
        blocked.add(candidate);
      }
      for (const port of p.input.custom_ports)
        ports.push({ name: 'custom', container_port: port, host_port: port, custom: true });

      await this.d.repo.insert(
        {
          id: p.id,
          user_id: p.user.id,
          node_id: p.node.id,
          cloud_product_id: p.productId,
          framework_version_id: p.version.id,
          name: p.input.instanceName || p.id,
          image: p.version.image,
          status: 'creating',
          billing_type: p.input.billing_type,
          duration: p.input.duration,
          price_fen: p.priceFen,
          gpu_count: p.input.gpuCount,
          gpu_type: p.gpuType,
          password_encrypted: this.d.secrets.seal(p.password),
          ports,
          mounts: [],
        },
        trx,
      );
      await this.d.repo.allocate(
        p.node.id,
        p.id,
        gpuIndices,
        ports.map((x) => x.host_port),
        trx,
      );
      return { gpuIndices, ports };
    });
  }

  // ------------------------------------------------------------------ lifecycle

  private async nodeOf(c: ContainerRecord): Promise<NodeRow> {
    return this.d.nodes.require(c.node_id);
  }

  async start(actor: AuthUser, id: string, opts: { admin?: boolean } = {}): Promise<ContainerView> {
    const c = await this.require(actor, id, opts);
    if (c.status === 'deleted') throw notFound('容器不存在');
    if (c.status === 'running') return containerView(c, this.d.secrets);
    const node = await this.nodeOf(c);
    const owner = await this.d.users.findById(c.user_id);
    await this.d.repo.update(id, { status: 'starting' });
    try {
      const info = await this.d.agents
        .get(node)
        .startContainer({ containerId: id, authorizedKeys: owner ? authorizedKeys(owner) : [] });
      const status = statusFromAgent(info);
      await this.d.repo.update(id, {
        status,
        started_at: status === 'running' ? new Date() : c.started_at,
        start_error: status === 'running' ? null : info.startError || '容器未能启动',
      });
    } catch (err) {
      const failure = agentError(err, '启动容器失败');
      await this.d.repo.update(id, {
        status: err instanceof AgentCallError && err.code === 5 ? 'not_found' : 'error',
        start_error: failure.detail,
      });
      throw failure;
    }
    return this.get(actor, id, opts);
  }

  async stop(actor: AuthUser, id: string, opts: { admin?: boolean } = {}): Promise<ContainerView> {
    const c = await this.require(actor, id, opts);
    if (c.status === 'deleted') throw notFound('容器不存在');
    const node = await this.nodeOf(c);
    try {
      const info = await this.d.agents.get(node).stopContainer(id);
      await this.d.repo.update(id, {
        status: statusFromAgent(info) === 'running' ? 'running' : 'stopped',
        stopped_at: new Date(),
      });
    } catch (err) {
      if (err instanceof AgentCallError && err.code === 5) {
        await this.d.repo.update(id, { status: 'not_found' });
      }
      throw agentError(err, '停止容器失败');
    }
    return this.get(actor, id, opts);
  }

  async destroy(actor: AuthUser, id: string, opts: { admin?: boolean } = {}): Promise<void> {
    const c = await this.require(actor, id, opts);
    if (c.status === 'deleted') return;
    const node = await this.nodeOf(c);
    try {
      await this.d.agents.get(node).removeContainer(id);
    } catch (err) {
      throw agentError(err, '删除容器失败');
    }
    await this.d.knex.transaction(async (trx) => {
      await this.d.repo.releaseAllocations(id, trx);
      await this.d.repo.update(id, { status: 'deleted', deleted_at: new Date() }, trx);
    });
  }

  /** Applies a state the agent reported (event stream, reconciliation). */
  async applyAgentState(containerId: string, status: ContainerStatus): Promise<void> {
    const c = await this.d.repo.find(containerId);
    if (!c || c.status === 'deleted' || c.status === 'creating' || c.status === status) return;
    // A container being started is settled by the start call itself.
    if (c.status === 'starting' && status !== 'running') return;
    await this.d.repo.update(containerId, {
      status,
      ...(status === 'stopped' || status === 'error' ? { stopped_at: new Date() } : {}),
    });
  }

  /** Node ownership check for the log and console streams. */
  async streamTarget(actor: AuthUser, id: string): Promise<{ container: ContainerRecord; node: NodeRow }> {
    const container = await this.require(actor, id, { admin: actor.isAdmin });
    if (container.status === 'deleted') throw notFound('容器不存在');
    return { container, node: await this.nodeOf(container) };
  }

  allocatedGpuIndices(nodeId: number): Promise<number[]> {
    return this.d.repo.allocatedGpuIndices(nodeId);
  }

  liveOnNode(nodeId: number) {
    return this.d.repo.liveOnNode(nodeId);
  }
}
