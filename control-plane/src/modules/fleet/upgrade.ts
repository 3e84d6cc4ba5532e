// 升级: moves a node's agent to the agent this control plane ships (its bundle, fleet/bundle.ts).
// The bundle is streamed over UpgradeAgent (header first, then 64 KiB chunks); the agent checks
// it, unpacks it beside the running version, switches its install's `current` link, answers and
// exits, and its supervisor starts the new version. Containers are Docker's and keep running.
// The node row says 升级中 (upgrading_since) until the node reports the new build (settle, on its
// reconnection) or the upgrade times out (expire): upgrade_error then says why.
import { createReadStream } from 'node:fs';
import type { HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError } from '../../agents/agent-client.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { AppError, conflict } from '../../framework/errors.js';
import type { NodeRow } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import { incompatibleReason, rememberBundle } from './agent-versions.js';

/** What an upgrade sends: fleet/bundle.ts's agentBundle(). */
export interface AgentBundleFile {
  path: string;
  version: string;
  build: string;
  sha256: string;
  size: number;
}

export interface UpgradeReply {
  from: { version: string | null; build: string | null };
  to: { version: string; build: string };
}

export interface UpgradeDeps {
  agents: AgentPool;
  /** The node's row and its upgrade bookkeeping (modules/nodes owns the table). */
  nodes: Pick<
    NodesService,
    'require' | 'claimUpgrade' | 'settleUpgrade' | 'expireUpgrades' | 'recordUpgradeFailure'
  >;
  /** The bundle to install (built once per control-plane start). */
  bundle: () => Promise<AgentBundleFile>;
  log: (message: string, err?: unknown) => void;
  /** How long a node may take to come back with the new build before the upgrade failed (5 min). */
  timeoutMs?: number;
}

/** Bytes per UpgradeAgent message. */
export const UPGRADE_CHUNK_BYTES = 64 * 1024;
/** The transfer, the unpacking and the new agent's `--version` check together. */
const TRANSFER_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export class UpgradeService {
  private readonly timeoutMs: number;

  constructor(private readonly deps: UpgradeDeps) {
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Sends the bundle to the node and waits for its agent's answer (the agent then restarts on
   * its own). 409 when the node is offline, already runs the bundle, is being upgraded, or its
   * agent cannot upgrade itself (not run from a bundle, too old).
   */
  async start(nodeId: number): Promise<UpgradeReply> {
    const node = await this.deps.nodes.require(nodeId);
    // An agent of a protocol this control plane does not speak is not dialled for work: reinstall it.
    const refused = incompatibleReason(node.agent_protocol);
    if (refused) throw conflict(`${refused}，无法在线升级，请在节点上重新运行安装脚本`, 'NODE_INCOMPATIBLE');
    if (node.status === 'offline') throw conflict('节点离线，无法升级', 'NODE_OFFLINE');
    const bundle = await this.deps.bundle();
    rememberBundle(bundle);
    if (node.agent_version === bundle.version && node.agent_build === bundle.build) {
      throw conflict('节点代理已是最新版本', 'NODE_AGENT_CURRENT');
    }
    // One upgrade at a time per node, across replicas (an expired one may be taken over).
    const claimed = await this.deps.nodes.claimUpgrade(
      nodeId,
      bundle.build,
      new Date(Date.now() - this.timeoutMs),
    );
    if (!claimed) throw conflict('节点正在升级中，请稍候', 'NODE_UPGRADING');
    try {
      const answer = await this.send(node, bundle);
      this.deps.log(
        `node ${node.name}: agent ${node.agent_version ?? '?'}-${node.agent_build ?? '?'} → ${answer.version}-${answer.build} installed, restarting`,
      );
    } catch (err) {
      const failure = describeFailure(err);
      await this.fail(nodeId, failure.detail);
      throw failure;
    }
    return {
      from: { version: node.agent_version, build: node.agent_build },
      to: { version: bundle.version, build: bundle.build },
    };
  }

  /**
   * The node reported its agent (a (re)connection): an upgrade to this build is over. Returns
   * whether one was.
   */
  async settle(nodeId: number, info: Pick<HostInfo__Output, 'agentBuild'>): Promise<boolean> {
    if (!info.agentBuild) return false;
    return this.deps.nodes.settleUpgrade(nodeId, info.agentBuild);
  }

  /** Upgrades whose node did not come back with the new build in time failed (the node view says so). */
  async expire(): Promise<number[]> {
    const minutes = Math.max(1, Math.round(this.timeoutMs / 60_000));
    return this.deps.nodes.expireUpgrades(
      new Date(Date.now() - this.timeoutMs),
      `升级超时：节点在 ${minutes} 分钟内没有以新版本重新连接，请检查节点上的代理服务（systemctl status gpucloud-agent）`,
    );
  }

  private async fail(nodeId: number, detail: string): Promise<void> {
    await this.deps.nodes
      .recordUpgradeFailure(nodeId, detail)
      .catch((err: unknown) => this.deps.log(`upgrade failure of node ${nodeId} not recorded`, err));
  }

  /** Streams the bundle: the header, then the file in 64 KiB chunks, with backpressure. */
  private async send(node: NodeRow, bundle: AgentBundleFile) {
    const { call, done } = this.deps.agents.get(node).upgradeAgent(TRANSFER_TIMEOUT_MS);
    // The agent may refuse at the header (not run from a bundle): stop reading then.
    let refused = false;
    done.catch(() => {
      refused = true;
    });
    const write = (message: Parameters<typeof call.write>[0]) =>
      new Promise<void>((resolve) => {
        if (call.write(message)) resolve();
        else {
          const go = () => {
            call.off('error', go);
            resolve();
          };
          call.once('drain', go);
          call.once('error', go);
        }
      });
    try {
      await write({
        header: {
          version: bundle.version,
          build: bundle.build,
          sizeBytes: bundle.size,
          sha256: bundle.sha256,
        },
      });
      const file = createReadStream(bundle.path, { highWaterMark: UPGRADE_CHUNK_BYTES });
      try {
        for await (const chunk of file as AsyncIterable<Buffer>) {
          if (refused) break;
          await write({ chunk });
        }
      } finally {
        file.destroy();
      }
      call.end();
    } catch (err) {
      call.cancel();
      throw err;
    }
    return done;
  }
}

/** The agent's refusal or a broken transfer, as the admin reads it. */
function describeFailure(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof AgentCallError) {
    switch (err.code) {
      case grpc.status.FAILED_PRECONDITION:
        // The agent says why in Chinese (此节点代理不是从安装包运行的，无法在线升级).
        return conflict(err.details || '节点代理无法在线升级', 'NODE_NOT_UPGRADABLE');
      case grpc.status.UNIMPLEMENTED:
        return conflict('节点代理版本过旧，不支持在线升级：请在节点上重新运行安装脚本', 'NODE_AGENT_TOO_OLD');
      case grpc.status.UNAVAILABLE:
      case grpc.status.DEADLINE_EXCEEDED:
        return new AppError(502, 'NODE_UNREACHABLE', `升级失败：无法连接节点（${err.details}）`);
      case grpc.status.DATA_LOSS:
      case grpc.status.INVALID_ARGUMENT:
        return new AppError(
          502,
          'UPGRADE_TRANSFER_FAILED',
          `升级失败：安装包传输校验未通过（${err.details}）`,
        );
      default:
        return new AppError(502, 'UPGRADE_FAILED', `升级失败：${err.details || err.message}`);
    }
  }
  return new AppError(502, 'UPGRADE_FAILED', `升级失败：${err instanceof Error ? err.message : String(err)}`);
}
