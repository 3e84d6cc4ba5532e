import { createHash } from 'node:crypto';
import type { ContainerSpec, RegistryAuth } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError, type AgentClient } from '../../agents/agent-client.js';
import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { PullProgress } from '../../agents/pull-progress.js';
import type { AuthUser } from '../../framework/auth.js';
import { AppError, badRequest, conflict, notFound, unavailable } from '../../framework/errors.js';
import { newId, newPassword } from '../../framework/ids.js';
import { yuanToFen } from '../../framework/money.js';
import type { SecretBox } from '../../framework/secret-box.js';
import { type CatalogueService, containerPortsOf, type FrameworkVersionView } from '../catalogue/service.js';
import type { CloudProductRecord } from '../cloud-products/repository.js';
import type { CloudProductsService } from '../cloud-products/service.js';
import type { CustomImageForPurchase } from '../images/service.js';
import type { NodeRow } from '../nodes/repository.js';
import { BILLING_TYPES, totalPriceFen } from '../pricing/pricing.js';
import type { MountRequest, StorageService } from '../storage/service.js';
import { authorizedKeys, type UsersService } from '../users/service.js';
import { type Allocator, maintenanceRefusal } from './allocator.js';
import type { ContainerBilling } from './billing-hooks.js';
import type { PurchaseReply } from './contract.js';
import type { ContainersForImagesRepository } from './for-images-repository.js';
import { type PurchaseOutcome, type PurchaseOutcomes, refusalOutcome } from './purchase-outcomes.js';
import type { PurchaseRequestsRepository } from './purchase-requests-repository.js';
import type { ContainersRepository, PortMapping } from './repository.js';
import type { PurchaseInput } from './schema.js';
import { DEFAULT_LEASE_MS, statusFromAgent } from './status.js';

const GIB = 1024 ** 3;

/** A taken-over purchase whose node does not answer ends as failed (refunded) after this long. */
const ABANDONED_UNREACHABLE_AFTER_MS = 10 * 60_000;
export const MSG_PROVISION_INTERRUPTED = '控制面重启，实例创建未完成，费用已退回';

/** The purchase's answer (contract.ts): always `creating`, the node does the rest. */
export type PurchaseResult = PurchaseReply;

export interface PurchaseDeps {
  /** Purchases made with an Idempotency-Key and their answers. */
  requests: PurchaseRequestsRepository;
  repo: ContainersRepository;
  allocator: Allocator;
  products: CloudProductsService;
  catalogue: CatalogueService;
  users: UsersService;
  agents: AgentPool;
  secrets: SecretBox;
  storage: StorageService;
  log: (message: string, err?: unknown) => void;
  /** Money: the order and charge of the purchase, in the allocation's transaction. */
  billing: ContainerBilling;
  /** How long a purchase stays with the process provisioning it without a renewal (DEFAULT_LEASE_MS). */
  leaseMs?: number;
  /** The node of a purchase taken over from a process that died. */
  nodes: { find(id: number): Promise<NodeRow | undefined> };
  /** What the node holds (the nodes module's warm images): a held image needs no pull. */
  images: {
    isPresent(nodeId: number, image: string): Promise<boolean>;
    refresh(node: NodeRow): Promise<void>;
  };
  /**
   * 我的镜像 (the images module's): a user's saved image as a purchase pulls it, and the pull
   * grant of a catalogue version published from one. Without it only public images are sold.
   */
  customImages?: {
    forPurchase(userId: number, imageId: number): Promise<CustomImageForPurchase>;
    catalogueGrant(
      frameworkVersionId: number,
    ): Promise<{ server_address: string; username: string; password: string } | undefined>;
  };
  /** Records the saved image a container is made from. */
  imageLinks?: Pick<ContainersForImagesRepository, 'setCustomImage'>;
  /** Told how each purchase ended (the metrics count them). */
  outcomes?: PurchaseOutcomes;
}

/** The image a purchase runs: a catalogue version's, or one of the user's saved images. */
interface ImageChoice {
  image: string;
  frameworkVersionId: number | null;
  customImageId: number | null;
  ports: Record<string, number | string>;
  extraDriverCapabilities: string[];
  /** Registry credentials for the pull (a saved image's, scoped to its repository). */
  auth: RegistryAuth | undefined;
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

function memoryBytes(text: string): number {
  const m = /^(\d+)\s*G/i.exec(text);
  return (m ? Number(m[1]) : 32) * GIB;
}

/** Buying a container: validation, price, allocation, creation on the node, idempotency. */
export class PurchaseService {
  /** Purchases this process provisions now (a control plane that dies mid-way leaves them 拉取镜像中). */
  private readonly provisioning = new Map<string, Promise<void>>();

  constructor(private readonly d: PurchaseDeps) {}

  private get leaseMs(): number {
    return this.d.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * With an Idempotency-Key, a retried request gets the first answer (success or refusal) and
   * buys nothing twice; the same key with a different body is refused.
   */
  async purchaseOnce(
    user: AuthUser,
    productId: number,
    input: PurchaseInput,
    key: string | undefined,
  ): Promise<{ status: number; body: unknown }> {
    if (!key) return { status: 201, body: await this.purchase(user, productId, input) };
    if (key.length > 128) throw badRequest('Idempotency-Key 过长', 'IDEMPOTENCY_KEY_TOO_LONG');
    const hash = createHash('sha256').update(JSON.stringify({ productId, input })).digest('hex');
    if (!(await this.d.requests.claim(user.id, key, hash))) {
      const prior = await this.d.requests.find(user.id, key);
      if (!prior) throw conflict('相同的购买请求正在处理中，请稍后查看容器列表', 'PURCHASE_IN_PROGRESS');
      if (prior.request_hash !== hash)
        throw conflict('该 Idempotency-Key 已用于另一笔购买', 'IDEMPOTENCY_KEY_REUSED');
      if (prior.status === 0)
        throw conflict('相同的购买请求正在处理中，请稍后查看容器列表', 'PURCHASE_IN_PROGRESS');
      return { status: prior.status, body: prior.response };
    }
    const remember = (status: number, body: unknown) => this.d.requests.remember(user.id, key, status, body);
    try {
      const result = await this.purchase(user, productId, input);
      await remember(201, result);
      return { status: 201, body: result };
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        await remember(err.status, { detail: err.detail, code: err.code });
      } else {
        // The outcome is unknown to the caller: let a retry try again.
        await this.d.requests.forget(user.id, key);
      }
      throw err;
    }
  }

  /** `rootPassword`: the container's password (MCP clients choose it); a random one otherwise. */
  async purchase(
    user: AuthUser,
    productId: number,
    input: PurchaseInput,
    options: { rootPassword?: string } = {},
  ): Promise<PurchaseResult> {
    try {
      return await this.accept(user, productId, input, options);
    } catch (err) {
      this.outcome(refusalOutcome(err));
      throw err;
    }
  }

  private outcome(outcome: PurchaseOutcome): void {
    this.d.outcomes?.record(outcome);
  }

  /** Checks, prices, allocates and charges the purchase; its provisioning goes on after the answer. */
  private async accept(
    user: AuthUser,
    productId: number,
    input: PurchaseInput,
    options: { rootPassword?: string },
  ): Promise<PurchaseResult> {
    const { product, node } = await this.d.products.forPurchase(productId);
    if (node.status === 'offline') throw unavailable('节点离线，暂时无法创建实例', 'NODE_OFFLINE');
    if (node.status === 'unsafe') throw conflict('节点未通过安全检查，暂不接受 GPU 任务', 'NODE_UNSAFE');
    if (node.maintenance_since) throw maintenanceRefusal();
    const agent = this.d.agents.get(node);
    // What the purchase needs to know, asked at once; refused in a fixed order all the same.
    const [versionAsked, mountsAsked, occupiedAsked, ownerAsked] = await Promise.allSettled([
      this.chooseImage(user, product, input),
      this.d.storage.resolveMounts(user, node.id, input.mounts),
      this.occupiedPorts(agent),
      this.d.users.findById(user.id),
    ]);
    const version = settledValue(versionAsked);
    const totalFen = this.checkPrice(product, input);

    const frameworkPorts = containerPortsOf(version.ports);
    for (const port of input.custom_ports) {
      if (frameworkPorts.some((p) => p.port === port))
        throw badRequest('该端口与框架默认端口重复', 'PORT_FRAMEWORK_CLASH');
    }
    const mounts = settledValue(mountsAsked);
    const occupied = settledValue(occupiedAsked);
    for (const port of input.custom_ports) {
      if (occupied.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
    }

    const owner = settledValue(ownerAsked);
    if (!owner) throw notFound('用户不存在');
    const id = newId('c');
    const password = options.rootPassword ?? newPassword();
    const { gpuUuids, ports, orderId } = await this.allocate({
      id,
      user,
      node,
      product,
      version,
      input,
      frameworkPorts,
      occupied,
      password,
      totalFen,
      mounts: mounts.stored,
    });

    const spec: ContainerSpec = {
      containerId: id,
      ownerId: String(user.id),
      ownerName: user.username,
      displayName: input.instanceName || id,
      image: version.image,
      // By UUID: nvidia-smi's index may name another GPU after a reboot.
      gpuDeviceIds: gpuUuids,
      ports: ports.map((p) => ({
        containerPort: p.container_port,
        hostPort: p.host_port,
        name: p.name,
        protocol: 'PROTOCOL_TCP',
      })),
      mounts: mounts.agent.map((m) => ({ ...m, readOnly: false })),
      resources: { memoryBytes: String(memoryBytes(product.memory)), pidsLimit: '4096' },
      env: input.env,
      labels: { 'gpucloud.cloud-product': String(product.id) },
      extraDriverCapabilities: version.extraDriverCapabilities,
    };
    const provisioning = this.provision({
      id,
      image: version.image,
      auth: version.auth,
      node,
      spec,
      password,
      keys: authorizedKeys(owner),
      orderId,
    }).catch((err) => this.d.log(`provisioning of ${id} failed unexpectedly`, err));
    this.provisioning.set(id, provisioning);
    void provisioning.finally(() => this.provisioning.delete(id));
    return { container_id: id, status: 'creating' };
  }

  /** Host ports in use on the node; a node that cannot ask Docker says so. */
  private async occupiedPorts(agent: AgentClient): Promise<Set<number>> {
    try {
      return new Set(await agent.listOccupiedPorts());
    } catch (err) {
      // The node answers but cannot ask Docker: say so rather than "cannot reach the node".
      const host = await agent.getHostInfo(5000).catch(() => undefined);
      if (host && !host.dockerAvailable) {
        throw unavailable(
          `节点的 Docker 服务不可用${host.dockerError ? `：${host.dockerError}` : ''}`,
          'DOCKER_UNAVAILABLE',
        );
      }
      throw agentError(err, '无法连接节点');
    }
  }

  /** Resolves once the purchases this process is provisioning are settled (tests, shutdown). */
  async settled(containerId?: string): Promise<void> {
    if (containerId) await this.provisioning.get(containerId);
    else await Promise.all(this.provisioning.values());
  }

  /**
   * After the purchase has answered: the node pulls the image (拉取镜像中 n%), then creates and
   * starts the container (启动中) until its SSH answers (运行中). A failure ends as 失败 with the
   * reason, the GPUs and ports freed and a prepaid charge given back. Nothing is metered before
   * 运行中. A container destroyed meanwhile is not brought back.
   */
  private async provision(p: {
    id: string;
    image: string;
    auth: RegistryAuth | undefined;
    node: NodeRow;
    spec: ContainerSpec;
    password: string;
    keys: string[];
    orderId: number;
  }): Promise<void> {
    const { id, node, spec } = p;
    const agent = this.d.agents.get(node);
    let created = false;
    // The purchase is this process's while it works on it: the lease says so to the replicas.
    const lease = setInterval(() => {
      this.d.repo
        .renewProvisionLease(id, new Date(Date.now() + this.leaseMs))
        .catch((e) => this.d.log(`provisioning lease of ${id} not renewed`, e));
    }, this.leaseMs / 4);
    lease.unref();
    try {
      // A node that holds the image (warm) goes straight to the create, which still pulls an
      // image removed since without a word; any other pulls first, with its progress shown.
      const warm = await this.d.images.isPresent(node.id, p.image);
      if (!warm && !(await this.pull(p))) {
        this.outcome('cancelled'); // destroyed meanwhile
        return;
      }
      const info = await agent.createContainer({
        spec,
        rootPassword: p.password,
        authorizedKeys: p.keys,
        start: true,
        ...(p.auth ? { registryAuth: p.auth } : {}),
      });
      created = true;
      const status = statusFromAgent(info);
      const startError = info.startError || (status === 'running' ? null : '容器未能启动');
      const applied = await this.d.repo.settleProvisioning(id, {
        status,
        started_at: status === 'running' ? new Date() : null,
        start_error: startError,
        jupyter: info.jupyter,
      });
      this.outcome(!applied ? 'cancelled' : status === 'running' ? 'ok' : 'failed_start');
      if (!applied) {
        // Destroyed while the node created it: remove what the node made.
        await agent
          .removeContainer(id)
          .catch((e) => this.d.log(`cleanup of ${id} on ${node.name} failed`, e));
        return;
      }
      if (status === 'running') {
        // A failure here is repaired by the next settlement (it opens missing meters).
        await this.d.billing.running(id).catch((e) => this.d.log(`metering of ${id} not opened`, e));
      }
      if (!warm) {
        // The node now holds the image: the market marks it, the next purchase skips the pull.
        await this.d.images
          .refresh(node)
          .catch((e) => this.d.log(`images of node ${node.name} not listed`, e));
      }
    } catch (err) {
      const reason = agentError(err, '创建容器失败').detail;
      this.d.log(`purchase ${id} on ${node.name} failed: ${reason}`, err);
      const cleanup = () =>
        agent.removeContainer(id).catch((e) => this.d.log(`cleanup of ${id} on ${node.name} failed`, e));
      // What the node made goes first: its GPUs and ports are about to be freed, and nothing may
      // run on the node unrecorded. One it may have made before its answer was lost is removed
      // too, without waiting on a node that does not answer.
      if (created) await cleanup();
      else if (err instanceof AgentCallError && err.unreachable) void cleanup();
      const failed = await this.d.repo.transaction(async (trx) => {
        const changed = await this.d.repo.settleProvisioning(
          id,
          { status: 'failed', start_error: reason, pull_progress: null },
          trx,
        );
        if (changed) await this.d.repo.releaseAllocations(id, trx);
        return changed;
      });
      this.outcome(failed ? 'failed_start' : 'cancelled');
      if (failed) {
        await this.d.billing.purchaseFailed(p.orderId).catch((e) => this.d.log(`refund of ${id} failed`, e));
      }
    } finally {
      clearInterval(lease);
    }
  }

  /**
   * Ends the purchases whose provisioning process died (their lease ran out; a crash, a kill, a
   * deploy): where the node made the container, the purchase ends as that container (charged
   * once, metered from 运行中); where it did not, whatever the node may still be making is
   * removed and the purchase ends as failed with its charge given back. A node that does not
   * answer gets the purchase back to try later, for up to 10 minutes. Any replica may run it:
   * each abandoned purchase goes to one.
   */
  async recoverAbandoned(now = new Date()): Promise<number> {
    const rows = await this.d.repo.claimAbandonedProvisioning(now, new Date(now.getTime() + this.leaseMs));
    for (const row of rows) {
      // Held while the node is asked (a start waits for SSH), as the purchase's own process would.
      const lease = setInterval(() => {
        this.d.repo
          .renewProvisionLease(row.id, new Date(Date.now() + this.leaseMs))
          .catch((e) => this.d.log(`provisioning lease of ${row.id} not renewed`, e));
      }, this.leaseMs / 4);
      lease.unref();
      await this.recoverOne(row, now)
        .catch((e) => this.d.log(`recovery of purchase ${row.id} failed`, e))
        .finally(() => clearInterval(lease));
    }
    return rows.length;
  }

  private async recoverOne(
    row: {
      id: string;
      node_id: number;
      user_id: number;
      created_at: Date;
      purchase_order_id: number | null;
      password_encrypted: string;
    },
    now: Date,
  ): Promise<void> {
    const node = await this.d.nodes.find(row.node_id);
    if (!node) return this.failAbandoned(row, MSG_PROVISION_INTERRUPTED);
    const agent = this.d.agents.get(node);
    let info: Awaited<ReturnType<AgentClient['inspectContainer']>>;
    try {
      // Where the node made it: started (or found running) with its access set, as the purchase
      // would have (the node serialises calls on one container: a create still under way
      // finishes first), answering once its SSH does. NOT_FOUND where it made none.
      const owner = await this.d.users.findById(row.user_id);
      info = await agent.startContainer({
        containerId: row.id,
        rootPassword: this.d.secrets.open(row.password_encrypted),
        authorizedKeys: owner ? authorizedKeys(owner) : [],
      });
    } catch (err) {
      if (err instanceof AgentCallError && err.code === grpc.status.NOT_FOUND) {
        // Nothing yet: a create still under way for the process that died finishes first, then goes.
        await agent.removeContainer(row.id);
        return this.failAbandoned(row, MSG_PROVISION_INTERRUPTED);
      }
      if (now.getTime() - row.created_at.getTime() > ABANDONED_UNREACHABLE_AFTER_MS) {
        // The node's container, if it ever makes one, is removed at its next report (reapEnded).
        return this.failAbandoned(
          row,
          `${MSG_PROVISION_INTERRUPTED} (${agentError(err, '无法连接节点').detail})`,
        );
      }
      this.d.log(`purchase ${row.id}: node ${node.name} did not answer, trying again later`, err);
      return;
    }
    const status = statusFromAgent(info);
    const applied = await this.d.repo.settleProvisioning(row.id, {
      status,
      started_at: status === 'running' ? new Date() : null,
      start_error: info.startError || (status === 'running' ? null : '容器未能启动'),
      jupyter: info.jupyter,
    });
    this.d.log(`purchase ${row.id} taken over from a stopped process: the node has it (${status})`);
    if (applied) this.outcome(status === 'running' ? 'ok' : 'failed_start');
    if (applied && status === 'running') {
      await this.d.billing.running(row.id).catch((e) => this.d.log(`metering of ${row.id} not opened`, e));
    }
  }

  private async failAbandoned(
    row: { id: string; purchase_order_id: number | null },
    reason: string,
  ): Promise<void> {
    const failed = await this.d.repo.transaction(async (trx) => {
      const changed = await this.d.repo.settleProvisioning(
        row.id,
        { status: 'failed', start_error: reason, pull_progress: null },
        trx,
      );
      if (changed) await this.d.repo.releaseAllocations(row.id, trx);
      return changed;
    });
    this.d.log(`purchase ${row.id} taken over from a stopped process: failed (${reason})`);
    if (failed) this.outcome('interrupted');
    if (failed && row.purchase_order_id !== null) await this.d.billing.purchaseFailed(row.purchase_order_id);
  }

  /** 拉取镜像中 n% until the node holds the image; false when the container was destroyed meanwhile. */
  private async pull(p: {
    id: string;
    image: string;
    auth: RegistryAuth | undefined;
    node: NodeRow;
  }): Promise<boolean> {
    const { id, node } = p;
    await this.d.repo.update(id, { status: 'pulling', pull_progress: 0, pull_phase: 'downloading' });
    const progress = new PullProgress();
    let shown = 0;
    let shownPhase = progress.phase;
    let shownAt = 0;
    let writes = Promise.resolve();
    await this.d.agents.get(node).pullImage(
      p.image,
      (message) => {
        const percent = progress.add(message);
        const phase = progress.phase;
        // At most one write a second: the console polls every few seconds.
        if ((percent === shown && phase === shownPhase) || Date.now() - shownAt < 1000) return;
        shown = percent;
        shownPhase = phase;
        shownAt = Date.now();
        writes = writes
          .then(() => this.d.repo.setPullProgress(id, percent, phase))
          .catch((e) => this.d.log(`pull progress of ${id} not saved`, e));
      },
      undefined,
      p.auth,
    );
    await writes;
    return this.d.repo.moveStatus(id, 'pulling', 'creating');
  }

  /**
   * 公共镜像: the catalogue version (with a pull grant where it was published from a saved
   * image); 自定义镜像: the user's saved image, ready, pulled by digest with a grant for exactly
   * its repository.
   */
  private async chooseImage(
    user: AuthUser,
    product: CloudProductRecord,
    input: PurchaseInput,
  ): Promise<ImageChoice> {
    if (input.imageType === 'custom') {
      if (input.customImageId === undefined) throw badRequest('请选择镜像', 'IMAGE_REQUIRED');
      if (!this.d.customImages) throw unavailable('镜像仓库未配置', 'REGISTRY_OFF');
      const custom = await this.d.customImages.forPurchase(user.id, input.customImageId);
      if (product.server_config.system_gpu_type === 'windows') {
        throw badRequest('该服务器仅支持 Windows 镜像', 'SYSTEM_TYPE_MISMATCH');
      }
      return {
        image: custom.image,
        frameworkVersionId: null,
        customImageId: custom.id,
        ports: custom.ports,
        extraDriverCapabilities: custom.extra_driver_capabilities,
        auth: custom.auth,
      };
    }
    const version = await this.checkVersion(product, input);
    const grant = await this.d.customImages?.catalogueGrant(version.id);
    return {
      image: version.image,
      frameworkVersionId: version.id,
      customImageId: null,
      ports: version.ports,
      extraDriverCapabilities: version.extra_driver_capabilities,
      auth: grant
        ? { serverAddress: grant.server_address, username: grant.username, password: grant.password }
        : undefined,
    };
  }

  private async checkVersion(
    product: CloudProductRecord,
    input: PurchaseInput,
  ): Promise<FrameworkVersionView> {
    if (input.framework === undefined) throw badRequest('请选择框架', 'FRAMEWORK_REQUIRED');
    if (input.frameworkVersion === undefined) throw badRequest('请选择版本', 'VERSION_NOT_FOUND');
    const version = await this.d.catalogue.findVersion(input.framework, input.frameworkVersion);
    if (!version) throw badRequest('请选择版本', 'VERSION_NOT_FOUND');
    const windowsServer = product.server_config.system_gpu_type === 'windows';
    if ((version.system_type === 'windows') !== windowsServer) {
      throw badRequest(
        windowsServer ? '该服务器仅支持 Windows 镜像' : 'Windows 镜像仅可用于 Windows 服务器',
        'SYSTEM_TYPE_MISMATCH',
      );
    }
    return version;
  }

  /** The server's total in fen; a client total that differs is refused. */
  private checkPrice(product: CloudProductRecord, input: PurchaseInput): number {
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
    return expected;
  }

  private allocate(p: {
    id: string;
    user: AuthUser;
    node: NodeRow;
    product: CloudProductRecord;
    version: ImageChoice;
    input: PurchaseInput;
    frameworkPorts: { name: string; port: number }[];
    occupied: Set<number>;
    password: string;
    totalFen: number;
    mounts: MountRequest[];
  }): Promise<{ gpuUuids: string[]; ports: PortMapping[]; orderId: number }> {
    const { allocator } = this.d;
    return allocator.withNodeLock(p.node.id, async (trx) => {
      // Again in the transaction: a drain may have come in since the purchase began.
      await allocator.refuseInMaintenance(p.node.id, trx);
      const gpuUuids = (await allocator.pickGpus(p.node, p.input.gpuCount, trx)).map((g) => g.uuid);
      const reserved = await allocator.reservedPorts(p.node.id, trx);
      for (const port of p.input.custom_ports) {
        if (reserved.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
      }
      const blocked = new Set([...reserved, ...p.occupied, ...p.input.custom_ports]);
      const hostPorts = allocator.pickRangePorts(p.node, p.frameworkPorts.length, blocked);
      const ports: PortMapping[] = [
        ...p.frameworkPorts.map((fp, i) => ({
          name: fp.name,
          container_port: fp.port,
          host_port: hostPorts[i] as number,
          custom: false,
        })),
        ...p.input.custom_ports.map((port) => ({
          name: 'custom',
          container_port: port,
          host_port: port,
          custom: true,
        })),
      ];
      await this.d.repo.insert(
        {
          id: p.id,
          user_id: p.user.id,
          node_id: p.node.id,
          cloud_product_id: p.product.id,
          framework_version_id: p.version.frameworkVersionId,
          name: p.input.instanceName || p.id,
          image: p.version.image,
          status: 'creating',
          billing_type: p.input.billing_type,
          duration: p.input.duration,
          price_fen: p.product.price_fen,
          no_gpu_price_fen: p.product.no_gpu_price_fen,
          gpu_count: p.input.gpuCount,
          gpu_type: p.product.gpu_type,
          password_encrypted: this.d.secrets.seal(p.password),
          ports,
          mounts: p.mounts,
          gpu_devices: gpuUuids,
          provision_lease_until: new Date(Date.now() + this.leaseMs),
        },
        trx,
      );
      if (p.version.customImageId !== null) {
        if (!this.d.imageLinks) throw unavailable('镜像仓库未配置', 'REGISTRY_OFF');
        await this.d.imageLinks.setCustomImage(p.id, p.version.customImageId, trx);
      }
      await this.d.repo.allocate(
        p.node.id,
        p.id,
        gpuUuids,
        ports.map((x) => x.host_port),
        trx,
      );
      // Charged in this transaction: a refused charge (402) allocates nothing.
      const charge = await this.d.billing.chargePurchase(trx, {
        userId: p.user.id,
        containerId: p.id,
        containerName: p.input.instanceName || p.id,
        billingType: p.input.billing_type,
        duration: p.input.duration,
        unitPriceFen: p.product.price_fen,
        gpuCount: p.input.gpuCount,
        totalFen: p.totalFen,
        productName: p.product.name,
        serverName: p.node.name,
        gpuType: p.product.gpu_type,
        region: p.node.region,
      });
      await this.d.repo.update(
        p.id,
        { purchase_order_id: charge.orderId, ...(charge.expiresAt ? { expires_at: charge.expiresAt } : {}) },
        trx,
      );
      return { gpuUuids, ports, orderId: charge.orderId };
    });
  }
}
