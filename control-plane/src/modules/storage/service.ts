import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { AuthUser } from '../../framework/auth.js';
import { AppError, badRequest, conflict, notFound, unavailable } from '../../framework/errors.js';
import type { NodeRow } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import type { StorageInfoReply, StorageNodeReply, VolumeReply, VolumeSummaryReply } from './contract.js';
import { agentVolumeName, MSG_VOLUME_IN_USE, VolumeDeletions } from './deletion.js';
import type { VolumeRow, VolumesRepository, VolumeUse } from './repository.js';

export { agentVolumeName } from './deletion.js';

const GB = 1024 ** 3;
/** A measurement younger than this is shown as it is (walking a big volume costs the node IO). */
const FRESH_MS = 10_000;

/** A volume and the storage page's answer (the shapes live in contract.ts). */
export type VolumeView = VolumeReply;
export type StorageInfo = StorageInfoReply;

export interface MountRequest {
  source: string;
  target: string;
}

export interface ResolvedMounts {
  /** What the container row keeps: the volume's id as the source. */
  stored: MountRequest[];
  /** What the agent gets: the volume's directory on the node. */
  agent: { volumeName: string; target: string }[];
}

export interface StorageDeps {
  repo: VolumesRepository;
  /** Which containers mount these volumes (the containers module's). */
  uses(volumeIds: number[]): Promise<VolumeUse[]>;
  nodes: NodesService;
  agents: AgentPool;
  /** A user's volumes together may hold this much (storage-settings.ts). */
  quotaBytes: number;
  /** How long a delete stays with the process running it without a renewal (DEFAULT_LEASE_MS). */
  leaseMs?: number | undefined;
  log: (message: string, err?: unknown) => void;
}

/** As the containers' DEFAULT_LEASE_MS. */
const DEFAULT_DELETE_LEASE_MS = 60_000;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Storage volumes: real directories on a node, owned by one user, mounted into their containers. */
export class StorageService {
  readonly quotaBytes: number;
  /** 删除中: the deletes this process follows, and the takeover of abandoned ones. */
  readonly deletions: VolumeDeletions;
  private readonly leaseMs: number;

  constructor(private readonly d: StorageDeps) {
    this.quotaBytes = d.quotaBytes;
    this.leaseMs = d.leaseMs ?? DEFAULT_DELETE_LEASE_MS;
    this.deletions = new VolumeDeletions({
      repo: d.repo,
      nodes: d.nodes,
      agents: d.agents,
      leaseMs: this.leaseMs,
      log: d.log,
    });
  }

  /** The user's full volume name: `username-part` (a part that already has the prefix keeps it). */
  fullName(user: AuthUser, part: string): string {
    const prefix = `${user.username}-`;
    return part.startsWith(prefix) && part.length > prefix.length ? part : `${prefix}${part}`;
  }

  private quotaMessage(): string {
    return `存储空间已达到 ${round2(this.quotaBytes / GB)} GB 配额，请先清理存储卷中的数据`;
  }

  private async nodeFor(nodeId: number | undefined): Promise<NodeRow> {
    if (nodeId !== undefined) {
      const node = await this.d.nodes.find(nodeId);
      if (!node) throw badRequest('存储节点不存在', 'NODE_NOT_FOUND');
      return node;
    }
    const online = (await this.nodes()).at(0);
    if (!online) throw unavailable('暂无可用的存储节点，请稍后再试', 'NO_STORAGE_NODE');
    return this.d.nodes.require(online.id);
  }

  /** Nodes a new volume can be made on: online, with their region. */
  async nodes(): Promise<StorageNodeReply[]> {
    const views = await this.d.nodes.listViews();
    return views
      .filter((n) => n.status === 'online')
      .map((n) => ({ id: n.id, name: n.name, region: n.region }));
  }

  /** Measures the user's volumes on their nodes when the last measurement is old. */
  private async refreshSizes(user: AuthUser, rows: VolumeRow[], force: boolean): Promise<VolumeRow[]> {
    // A volume being deleted keeps its last size until its row goes (walking it would cost the
    // node IO for nothing).
    const stale = rows.filter(
      (r) =>
        !r.deleting_since && (force || !r.measured_at || Date.now() - r.measured_at.getTime() > FRESH_MS),
    );
    const nodeIds = [...new Set(stale.map((r) => r.node_id))];
    const sizes = new Map<number, number>();
    await Promise.all(
      nodeIds.map(async (nodeId) => {
        try {
          const node = await this.d.nodes.require(nodeId);
          if (node.status === 'offline') return;
          const measured = await this.d.agents.get(node).listVolumes(String(user.id), 10_000);
          const byName = new Map(measured.map((v) => [v.name, Number(v.sizeBytes)]));
          for (const row of stale.filter((r) => r.node_id === nodeId)) {
            const size = byName.get(agentVolumeName(row.id));
            if (size === undefined) continue;
            sizes.set(row.id, size);
            await this.d.repo.recordSize(row.id, size, new Date());
          }
        } catch (err) {
          this.d.log(`volume sizes of user ${user.id} on node ${nodeId} not measured`, err);
        }
      }),
    );
    return rows.map((r) => (sizes.has(r.id) ? { ...r, size_bytes: sizes.get(r.id) as number } : r));
  }

  private async views(rows: VolumeRow[]): Promise<VolumeView[]> {
    const uses = await this.d.uses(rows.map((r) => r.id));
    const nodes = new Map((await this.d.nodes.listViews()).map((n) => [n.id, n]));
    return rows.map((r) => {
      const node = nodes.get(r.node_id);
      return {
        id: r.id,
        name: r.name,
        path: r.path,
        size: r.size_bytes,
        node_id: r.node_id,
        agent: {
          server_hostname: node?.public_host || node?.hostname || '',
          name: node?.name ?? '',
          region: node?.region ?? '',
        },
        status: r.deleting_since ? 'deleting' : 'ready',
        delete_progress: r.deleting_since ? (r.delete_progress ?? 0) : null,
        delete_error: r.delete_error,
        containers: uses
          .filter((u) => u.volume_id === r.id)
          .map((u) => ({
            id: u.container_id,
            container_id: u.container_id,
            name: u.container_name,
            mount_path: u.mount_path,
            pending: u.pending,
          })),
        created_at: r.created_at.toISOString(),
      };
    });
  }

  /**
   * GET /api/storage/info: usage against the quota and every volume with its users. Sizes are
   * measured on the nodes when older than a few seconds, or now when `measureNow` (刷新).
   */
  async info(user: AuthUser, measureNow = false): Promise<StorageInfo> {
    const rows = await this.refreshSizes(user, await this.d.repo.listForUser(user.id), measureNow);
    const used = rows.reduce((sum, r) => sum + r.size_bytes, 0);
    return {
      used_storage: round2(used / GB),
      quota_storage: round2(this.quotaBytes / GB),
      used_bytes: used,
      quota_bytes: this.quotaBytes,
      volumes: await this.views(rows),
    };
  }

  /** The volumes offered in the purchase and mount dialogs (optionally of one node). */
  async list(user: AuthUser, nodeId?: number): Promise<VolumeSummaryReply[]> {
    const rows = await this.d.repo.listForUser(user.id);
    return rows
      .filter((r) => !r.deleting_since && (nodeId === undefined || r.node_id === nodeId))
      .map((r) => ({ id: r.id, name: r.name, path: r.path, node_id: r.node_id }));
  }

  async create(
    user: AuthUser,
    input: { name: string; path: string; node_id?: number | undefined },
  ): Promise<VolumeView> {
    const node = await this.nodeFor(input.node_id);
    if (node.status === 'offline') throw unavailable('存储节点离线，暂时无法创建存储卷', 'NODE_OFFLINE');
    if ((await this.d.repo.usedBytes(user.id)) >= this.quotaBytes) {
      throw new AppError(403, 'STORAGE_QUOTA_EXCEEDED', this.quotaMessage());
    }
    const row = await this.d.repo.insert({
      user_id: user.id,
      node_id: node.id,
      name: this.fullName(user, input.name),
      path: input.path,
    });
    if (!row) throw conflict('存储卷名称已存在', 'VOLUME_NAME_TAKEN');
    try {
      await this.d.agents.get(node).createVolume(String(user.id), agentVolumeName(row.id));
    } catch (err) {
      // Nothing is left behind: the row goes when the node did not make the directory.
      await this.d.repo.delete(row.id);
      throw agentError(err, '创建存储卷失败');
    }
    const [view] = await this.views([row]);
    return view as VolumeView;
  }

  async rename(user: AuthUser, id: number, newName: string): Promise<VolumeView> {
    const row = await this.require(user, id);
    if (row.deleting_since) throw conflict('存储卷正在删除', 'VOLUME_DELETING');
    const name = this.fullName(user, newName);
    if (name !== row.name && !(await this.d.repo.rename(user.id, id, name))) {
      throw conflict('存储卷名称已存在', 'VOLUME_NAME_TAKEN');
    }
    const [view] = await this.views([{ ...row, name }]);
    return view as VolumeView;
  }

  /**
   * 删除: answers at once with the volume 删除中; the node deletes it in the background
   * (deletion.ts), the row and its share of the quota go when it is done. Refused while a
   * container mounts it or its node is offline. A volume already being deleted answers as it is.
   */
  async remove(user: AuthUser, id: number): Promise<VolumeView> {
    let row = await this.require(user, id);
    if (!row.deleting_since) {
      if ((await this.d.uses([id])).length > 0) throw conflict(MSG_VOLUME_IN_USE, 'VOLUME_IN_USE');
      const node = await this.d.nodes.require(row.node_id);
      if (node.status === 'offline') throw unavailable('存储节点离线，暂时无法删除存储卷', 'NODE_OFFLINE');
      const marked = await this.d.repo.markDeleting(user.id, id, new Date(Date.now() + this.leaseMs));
      if (marked) {
        // A purchase that mounted it between the check and the mark: the mount wins.
        if ((await this.d.uses([id])).length > 0) {
          await this.d.repo.unmarkDeleting(id, null);
          throw conflict(MSG_VOLUME_IN_USE, 'VOLUME_IN_USE');
        }
        this.deletions.start(marked);
        row = marked;
      } else {
        // Marked by a request beside this one (which may even be done with it already).
        row = (await this.d.repo.findForUser(user.id, id)) ?? { ...row, deleting_since: new Date() };
      }
    }
    // The row as marked, not read again: a small volume may be gone before this answers.
    const [view] = await this.views([row]);
    return view as VolumeView;
  }

  private async require(user: AuthUser, id: number): Promise<VolumeRow> {
    const row = await this.d.repo.findForUser(user.id, id);
    if (!row) throw notFound('存储卷不存在', 'VOLUME_NOT_FOUND');
    return row;
  }

  /**
   * Checks mounts for a container of `userId` on `nodeId`: each source is one of the user's
   * volumes (by id, full name or the part after the username) on that node, targets differ,
   * and the user's storage is within the quota when a mount is added.
   */
  async resolveMounts(
    owner: { id: number; username: string },
    nodeId: number,
    mounts: readonly MountRequest[],
    alreadyMounted: readonly MountRequest[] = [],
  ): Promise<ResolvedMounts> {
    if (mounts.length === 0) return { stored: [], agent: [] };
    const volumes = await this.d.repo.listForUser(owner.id);
    const targets = new Set<string>();
    const resolved: ResolvedMounts = { stored: [], agent: [] };
    for (const mount of mounts) {
      const source = mount.source.trim();
      const volume =
        volumes.find((v) => String(v.id) === source) ??
        volumes.find((v) => v.name === source) ??
        volumes.find((v) => v.name === `${owner.username}-${source}`);
      if (!volume) throw badRequest(`存储卷 ${source} 不存在`, 'VOLUME_NOT_FOUND');
      if (volume.deleting_since) {
        throw badRequest(`存储卷 ${volume.name} 正在删除，无法挂载`, 'VOLUME_DELETING');
      }
      if (volume.node_id !== nodeId) {
        throw badRequest(
          `存储卷 ${volume.name} 不在该服务器上，只能挂载同一节点的存储卷`,
          'VOLUME_OTHER_NODE',
        );
      }
      const target = mount.target.trim().replace(/(.)\/+$/, '$1');
      if (targets.has(target)) throw badRequest(`挂载路径 ${target} 重复`, 'MOUNT_TARGET_DUPLICATE');
      targets.add(target);
      resolved.stored.push({ source: String(volume.id), target });
      resolved.agent.push({ volumeName: agentVolumeName(volume.id), target });
    }
    const adds = resolved.stored.some(
      (m) => !alreadyMounted.some((a) => a.source === m.source && a.target === m.target),
    );
    if (adds && (await this.d.repo.usedBytes(owner.id)) >= this.quotaBytes) {
      throw new AppError(403, 'STORAGE_QUOTA_EXCEEDED', this.quotaMessage());
    }
    return resolved;
  }

  /** Mounts as the agent needs them, from what a container row keeps. */
  agentMounts(stored: readonly MountRequest[]): { volumeName: string; target: string }[] {
    return stored.map((m) => ({ volumeName: agentVolumeName(Number(m.source)), target: m.target }));
  }

  usesOf(volumeIds: number[]): Promise<VolumeUse[]> {
    return this.d.uses(volumeIds);
  }
}
