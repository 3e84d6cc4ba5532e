// Agent certificates are renewed by the control plane before they expire (issue 19): over the
// node's mutual-TLS channel the agent makes a new key and answers its CSR (RenewCertificate),
// the platform CA signs it, and the agent installs the certificate (InstallCertificate), which
// its file watcher then serves to new connections: no restart.
import type { AgentPool } from '../../agents/agent-pool.js';
import type { NodeRow } from '../nodes/repository.js';
import type { PlatformPki } from './pki.js';

/** A certificate with less than this left is renewed. */
export const RENEW_BEFORE_MS = 30 * 24 * 3600_000;

/** When the node's certificate expires, as its agent reported it (HostInfo); undefined when unknown. */
export function certificateExpiry(node: Pick<NodeRow, 'host_info'>): number | undefined {
  const value = Number(node.host_info?.certificateExpiresUnixMs ?? 0);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export interface CertificateRenewalDeps {
  nodes: { list(): Promise<NodeRow[]>; refresh(node: NodeRow): Promise<unknown> };
  agents: Pick<AgentPool, 'get'>;
  pki: PlatformPki;
  log: (message: string, err?: unknown) => void;
}

export class CertificateRenewal {
  constructor(private readonly d: CertificateRenewalDeps) {}

  /** Platform nodes that answer and whose certificate expires within 30 days. */
  due(nodes: NodeRow[], now = Date.now()): NodeRow[] {
    return nodes.filter((node) => {
      if (node.tls !== 'platform' || node.status === 'offline') return false;
      const expires = certificateExpiry(node);
      return expires !== undefined && expires - now < RENEW_BEFORE_MS;
    });
  }

  /** Renews every due certificate; a failure is logged and tried again at the next run. */
  async renewDue(now = Date.now()): Promise<{ renewed: number[]; failed: number[] }> {
    const renewed: number[] = [];
    const failed: number[] = [];
    if (!this.d.pki.available) return { renewed, failed };
    for (const node of this.due(await this.d.nodes.list(), now)) {
      try {
        const expires = await this.renew(node);
        renewed.push(node.id);
        this.d.log(`certificate of node ${node.name} renewed (until ${new Date(expires).toISOString()})`);
      } catch (err) {
        failed.push(node.id);
        this.d.log(`certificate of node ${node.name} not renewed (tried again at the next run)`, err);
      }
    }
    return { renewed, failed };
  }

  /** RenewCertificate → sign → InstallCertificate; returns when the new certificate expires. */
  async renew(node: NodeRow): Promise<number> {
    if (node.tls !== 'platform')
      throw new Error(`node ${node.name} does not use the platform's certificates`);
    const agent = this.d.agents.get(node);
    const csr = await agent.renewCertificate();
    const signed = await this.d.pki.signAgentCsr(csr, node.id);
    const expires = await agent.installCertificate(signed.certificatePem, signed.caCertificatePem);
    // The stored expiry follows at once (else the next run would renew it again).
    await this.d.nodes
      .refresh(node)
      .catch((err) => this.d.log(`node ${node.name} not read after its certificate renewal`, err));
    return expires;
  }
}
