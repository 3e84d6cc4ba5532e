// What each node's agent runs (version, build, protocol), whether the control plane speaks its
// protocol, and whether it is older than the agent this control plane ships (its bundle).
import { readFileSync } from 'node:fs';
import { agentProtocolOf, type HostInfo__Output, SUPPORTED_AGENT_PROTOCOLS } from '@gpucloud/proto';

/** The agent columns of a node row (migration 76), as a GetHostInfo answer sets them. */
export interface AgentFacts {
  agent_version: string | null;
  agent_build: string | null;
  agent_protocol: number | null;
}

/** The upgrade columns of a node row (migration 76). */
export interface UpgradeColumns {
  upgrading_since: Date | null;
  upgrade_target: string | null;
  upgrade_error: string | null;
  upgrade_error_at: Date | null;
}

/** The agent this control plane ships: its version, and its build once the bundle was built. */
export interface AgentRelease {
  version: string;
  /** Unknown until the bundle was built (fleet/bundle.ts builds it on first use). */
  build?: string | undefined;
}

export function agentFactsOf(info: HostInfo__Output): AgentFacts {
  return {
    agent_version: info.agentVersion || null,
    agent_build: info.agentBuild || null,
    agent_protocol: agentProtocolOf(info.protocolVersion),
  };
}

/** Why the control plane refuses the agent ('' when it speaks its protocol, or it is not known yet). */
export function incompatibleReason(protocol: number | null | undefined): string {
  if (protocol === null || protocol === undefined) return '';
  if (SUPPORTED_AGENT_PROTOCOLS.includes(protocol)) return '';
  return `节点代理协议版本 ${protocol} 不受支持（控制面支持 ${SUPPORTED_AGENT_PROTOCOLS.join('、')}）`;
}

/** The agent version of this checkout (node-agent/package.json): what the bundle is built from. */
function sourceVersion(): string {
  try {
    const pkg: unknown = JSON.parse(
      readFileSync(new URL('../../../../node-agent/package.json', import.meta.url), 'utf8'),
    );
    const version = typeof pkg === 'object' && pkg !== null ? (pkg as { version?: unknown }).version : '';
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

let release: AgentRelease | undefined;

/** The agent this control plane ships, as far as it is known now (no bundle is built for it). */
export function agentRelease(): AgentRelease {
  release ??= { version: sourceVersion() };
  return release;
}

/** Records the bundle once built: from then on a node of another build is outdated too. */
export function rememberBundle(bundle: { version: string; build: string }): void {
  release = { version: bundle.version, build: bundle.build };
}

/**
 * Whether the node runs an agent other than the one this control plane ships. An agent run from
 * a checkout (build "source": development, `npm start`) is compared by version only; a node
 * whose agent has not been read yet is not flagged.
 */
export function agentOutdated(facts: Pick<AgentFacts, 'agent_version' | 'agent_build'>): boolean {
  if (!facts.agent_version) return false;
  const current = agentRelease();
  if (facts.agent_version !== current.version) return true;
  return Boolean(
    current.build &&
      facts.agent_build &&
      facts.agent_build !== 'source' &&
      facts.agent_build !== current.build,
  );
}

/** The node view's agent fields (modules/nodes/contract.ts). */
export function agentVersionView(row: Partial<AgentFacts & UpgradeColumns>) {
  const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    agent_version: row.agent_version ?? null,
    agent_build: row.agent_build ?? null,
    agent_protocol: row.agent_protocol ?? null,
    agent_outdated: agentOutdated({
      agent_version: row.agent_version ?? null,
      agent_build: row.agent_build ?? null,
    }),
    incompatible_reason: incompatibleReason(row.agent_protocol),
    upgrading_since: iso(row.upgrading_since),
    upgrade_error: row.upgrade_error ?? null,
    upgrade_error_at: iso(row.upgrade_error_at),
  };
}
