import type { Knex } from 'knex';
import { conflict } from '../../framework/errors.js';
import { placeGpus, sellableGpus } from '../nodes/gpus.js';
import type { NodeGpuRow, NodeRow } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import type { ContainersRepository } from './repository.js';

// Namespace of the advisory locks that serialise allocations per node.
const ALLOCATION_LOCK = 7_301;

export const GPU_INSUFFICIENT = 'GPU_INSUFFICIENT';

/** A node in maintenance (维护中) takes no new container: purchases, MCP creations, app deploys. */
export function maintenanceRefusal() {
  return conflict('节点维护中，暂不可购买', 'NODE_MAINTENANCE');
}

/**
 * GPUs and host ports of a node are handed out inside a transaction holding the node's advisory
 * lock; the unique constraints on the allocation tables back it up. Holds no state.
 */
export class Allocator {
  constructor(
    private readonly repo: ContainersRepository,
    private readonly nodes: NodesService,
  ) {}

  /** Runs `fn` in a transaction that holds the node's allocation lock. */
  withNodeLock<T>(nodeId: number, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.repo.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, ?)', [ALLOCATION_LOCK, nodeId]);
      return fn(trx);
    });
  }

  /**
   * Picks `count` sellable GPUs of the node (present, healthy, not MIG, fabric ready, free),
   * placed by topology (nodes/gpus.ts: one NVLink domain, else one NUMA node, else the lowest
   * indices), or refuses with the number sellable. The caller records their UUIDs.
   */
  async pickGpus(node: NodeRow, count: number, trx: Knex.Transaction, hint = ''): Promise<NodeGpuRow[]> {
    // On the transaction's connection: a second one could wait forever while this holds the lock.
    // The node row is read again there too: what its last refresh said (a failed GPU probe).
    // One query at a time: a transaction is one connection.
    const gpus = await this.nodes.gpus(node.id, trx);
    const taken = await this.repo.allocatedGpuUuids(node.id, trx);
    const current = await this.nodes.findIn(node.id, trx);
    const free = sellableGpus(current ?? node, gpus, new Set(taken));
    const picked = placeGpus(
      free,
      count,
      gpus.filter((g) => !g.missing_since),
    );
    if (!picked) throw conflict(`GPU 资源不足，当前可用 ${free.length} 卡${hint}`, GPU_INSUFFICIENT);
    return picked;
  }

  /** Refuses (409) a new container on a node in maintenance, as the transaction reads the node. */
  async refuseInMaintenance(nodeId: number, trx: Knex.Transaction): Promise<void> {
    const current = await this.nodes.findIn(nodeId, trx);
    if (current?.maintenance_since) throw maintenanceRefusal();
  }

  /** Host ports reserved on the node (by any container). */
  async reservedPorts(nodeId: number, trx: Knex.Transaction): Promise<Set<number>> {
    return new Set(await this.repo.allocatedPorts(nodeId, trx));
  }

  /** The next `count` host ports of the node's range not in `blocked`. */
  pickRangePorts(node: NodeRow, count: number, blocked: Set<number>): number[] {
    const out: number[] = [];
    for (let port = node.port_range_start; port <= node.port_range_end && out.length < count; port++) {
      if (!blocked.has(port)) out.push(port);
    }
    if (out.length < count) throw conflict('节点端口已用尽', 'PORTS_EXHAUSTED');
    return out;
  }
}
