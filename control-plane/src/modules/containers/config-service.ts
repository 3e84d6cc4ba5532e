import type { ContainerInfo__Output } from '@gpucloud/proto';
import { agentError, outcomeUnknown } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { AuthUser } from '../../framework/auth.js';
import { badRequest, conflict } from '../../framework/errors.js';
import { newPassword } from '../../framework/ids.js';
import type { SecretBox } from '../../framework/secret-box.js';
import type { NodeRow } from '../nodes/repository.js';
import type { StorageService } from '../storage/service.js';
import type { Allocator } from './allocator.js';
import type { ContainerPasswordReply } from './contract.js';
import type { ContainersRepository, PortMapping } from './repository.js';
import type { ActorOptions, ContainersService } from './service.js';
import { statusFromAgent } from './status.js';
import { type ContainerView, containerView } from './view.js';

export interface ContainerConfigDeps {
  repo: ContainersRepository;
  containers: ContainersService;
  allocator: Allocator;
  agents: AgentPool;
  secrets: SecretBox;
  storage: StorageService;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** What a user changes on an existing container: root password, custom ports, mounts. */
export class ContainerConfigService {
  constructor(private readonly d: ContainerConfigDeps) {}

  /** Sets a new root password (random and strong unless given) and returns it. */
  async resetPassword(
    actor: AuthUser,
    id: string,
    password?: string,
    opts: ActorOptions = {},
  ): Promise<ContainerPasswordReply> {
    const { container, node } = await this.d.containers.target(actor, id, opts);
    if (container.status !== 'running')
      throw conflict('容器未运行，请先启动容器再重置密码', 'CONTAINER_NOT_RUNNING');
    let applied: string;
    try {
      applied = await this.d.agents.get(node).resetPassword(id, password ?? newPassword());
    } catch (err) {
      throw agentError(err, '密码重置失败');
    }
    await this.d.repo.update(id, { password_encrypted: this.d.secrets.seal(applied) });
    return { password: applied };
  }

  /**
   * Replaces the custom ports (host port = container port, 10000-20000). The framework ports keep
   * their host ports. The container is recreated from a commit of its filesystem and restarted
   * when it was running; the reservations change only when the node succeeded.
   */
  async updatePorts(
    actor: AuthUser,
    id: string,
    ports: number[],
    opts: ActorOptions = {},
  ): Promise<ContainerView> {
    const { container: c, node } = await this.d.containers.target(actor, id, opts);
    const framework = c.ports.filter((p) => !p.custom);
    for (const port of ports) {
      if (framework.some((p) => p.container_port === port))
        throw badRequest('该端口与框架默认端口重复', 'PORT_FRAMEWORK_CLASH');
    }
    const own = new Set(c.ports.map((p) => p.host_port));
    const agent = this.d.agents.get(node);
    let occupied: number[];
    try {
      occupied = await agent.listOccupiedPorts();
    } catch (err) {
      throw agentError(err, '更新端口映射失败');
    }
    for (const port of ports) {
      if (occupied.includes(port) && !own.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
    }
    const next: PortMapping[] = [
      ...framework,
      ...ports.map((port) => ({ name: 'custom', container_port: port, host_port: port, custom: true })),
    ];
    // Reserve first (the unique index refuses a port another container holds), then reconfigure.
    await this.d.allocator.withNodeLock(node.id, async (trx) => {
      const reserved = await this.d.allocator.reservedPorts(node.id, trx);
      for (const port of ports) {
        if (reserved.has(port) && !own.has(port)) throw conflict(`${port}端口已被占用`, 'PORT_OCCUPIED');
      }
      await this.d.repo.replacePorts(
        node.id,
        id,
        [...new Set([...own, ...next.map((p) => p.host_port)])],
        trx,
      );
    });
    // A container made when GPUs were named by index is recreated with its UUIDs (a renumbered
    // host would otherwise hand it another GPU); one that holds no GPUs now keeps what it has.
    const gpusByUuid = c.gpu_uuids.length > 0 && !sameSet(c.gpu_uuids, c.gpu_devices);
    let info: ContainerInfo__Output;
    try {
      // Held while the node recreates it: what it reports meanwhile (died, gone, started) belongs
      // to this change, and a report read as a stop would free the GPUs the new container runs
      // on. A running one shows 启动中 meanwhile.
      info = await this.d.containers.whileHeld(id, c.status === 'running' ? 'starting' : c.status, () =>
        agent.reconfigureContainer({
          containerId: id,
          ...(gpusByUuid ? { setGpus: true, gpuDeviceIds: c.gpu_uuids } : {}),
          setPorts: true,
          ports: next.map((p) => ({
            containerPort: p.container_port,
            hostPort: p.host_port,
            name: p.name,
            protocol: 'PROTOCOL_TCP',
          })),
          restartIfRunning: true,
        }),
      );
    } catch (err) {
      // The hold ends: the node's reports settle the status.
      await this.d.repo.update(id, { status: c.status });
      if (outcomeUnknown(err)) {
        // The node may have made the change all the same: both sets of ports stay reserved
        // until its next report says which it binds (ContainersService.adoptReported).
        await this.adoptNow(node, id);
      } else {
        // The node refused or put the old container back: the old ports are the ones.
        await this.d.allocator.withNodeLock(node.id, (trx) =>
          this.d.repo.replacePorts(node.id, id, [...own], trx),
        );
      }
      throw agentError(err, '更新端口映射失败');
    }
    await this.d.repo.update(id, { status: statusFromAgent(info) === 'running' ? 'running' : 'stopped' });
    await this.d.allocator.withNodeLock(node.id, async (trx) => {
      await this.d.repo.replacePorts(
        node.id,
        id,
        next.map((p) => p.host_port),
        trx,
      );
      await this.d.repo.updateJson(
        id,
        { ports: next, ...(gpusByUuid ? { gpu_devices: c.gpu_uuids } : {}) },
        trx,
      );
    });
    return this.d.containers.get(actor, id, opts);
  }

  /** Asks the node what it holds for the container now and records that, if it answers. */
  private async adoptNow(node: NodeRow, id: string): Promise<void> {
    const observedAt = new Date();
    try {
      const info = await this.d.agents.get(node).inspectContainer(id);
      await this.d.containers.adoptReported(node, [info], observedAt);
    } catch {
      // Unreachable still: its next report settles it.
    }
  }

  /** Saves new mounts; they take effect at the next start (挂载点已更新，重启生效). */
  async updateMounts(
    actor: AuthUser,
    id: string,
    mounts: { source: string; target: string }[],
    opts: ActorOptions = {},
  ): Promise<ContainerView> {
    const { container } = await this.d.containers.target(actor, id, opts);
    const { stored } = await this.d.storage.resolveMounts(
      { id: container.user_id, username: container.username },
      container.node_id,
      mounts,
      container.mounts,
    );
    const unchanged =
      stored.length === container.mounts.length &&
      stored.every(
        (m, i) => m.source === container.mounts[i]?.source && m.target === container.mounts[i]?.target,
      );
    const pending = unchanged ? null : stored;
    await this.d.repo.updateJson(container.id, { pending_mounts: pending });
    return containerView({ ...container, pending_mounts: pending }, this.d.secrets);
  }
}
