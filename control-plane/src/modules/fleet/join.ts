// Joining a node with a token (issue 19): admins make single-use join tokens; an agent presents
// one with the CSR of its own key and gets its node id, its node token and its certificate from
// the platform CA. The node is then dialled with mutual TLS only.
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../framework/errors.js';
import type { NodeRow } from '../nodes/repository.js';
import type { RateLimit, RateLimiter } from '../rate-limits/service.js';
import { rule } from '../rate-limits/service.js';
import type {
  AgentJoinReply,
  JoinTokenCreatedReply,
  JoinTokenListReply,
  JoinTokenStatus,
  JoinTokenView,
} from './join-contract.js';
import type { JoinRepository, JoinTokenRow } from './join-repository.js';
import type { NewcomerWatch } from './newcomers.js';
import { agentServerName, CsrError, type PlatformPki, parseAgentCsr } from './pki.js';
import type { AgentJoinInput } from './schema.js';

export const MSG_BAD_JOIN_TOKEN = '加入令牌无效或已过期';
const MSG_JOIN_LIMIT = '加入节点失败次数过多，请{minutes}分钟后再试';
const MSG_PKI_UNAVAILABLE = '平台证书不可用，暂时无法加入节点（请检查控制面的 SECRET_KEY）';

/** Failed joins per client address (like failed sign-ins: a guesser is locked out for a while). */
export const DEFAULT_JOIN_FAILURES_PER_IP: RateLimit = { limit: 20, windowSeconds: 15 * 60 };

const TOKEN_PREFIX = 'gcj_';

export function hashJoinToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new join token: gcj_ + 32 base64url characters (24 random bytes). */
export function newJoinToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** A node name from a host's name: the characters node names allow, at most 60 (room for a suffix). */
export function nodeNameFrom(hostName: string): string {
  const cleaned = hostName
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
  return cleaned || 'node';
}

/** host:port for a client address (IPv4-mapped IPv6 as IPv4, IPv6 in brackets). */
export function addressOf(ip: string, port: number): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const host = v4 ?? ip;
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

function statusOf(row: JoinTokenRow, now: number): JoinTokenStatus {
  if (row.used_at) return 'used';
  return row.expires_at.getTime() <= now ? 'expired' : 'pending';
}

export function joinTokenView(row: JoinTokenRow, now = Date.now()): JoinTokenView {
  return {
    id: row.id,
    name: row.name,
    region: row.region,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    used_at: row.used_at ? row.used_at.toISOString() : null,
    node_id: row.node_id,
    status: statusOf(row, now),
  };
}

export interface JoinServiceDeps {
  repo: JoinRepository;
  pki: PlatformPki;
  /** nodes: NodesService.insertJoined (in the join's transaction). */
  nodes: {
    insertJoined(
      params: { name: string; address: string; token: string; region: string; publicHost: string | null },
      trx: Parameters<Parameters<JoinRepository['transaction']>[0]>[0],
    ): Promise<NodeRow>;
  };
  limiter: RateLimiter;
  failuresPerIp?: RateLimit;
  /** PUBLIC_URL's origin: the join command's; else the request's origin. */
  publicUrl?: string | undefined;
  newcomers: NewcomerWatch;
  log: (message: string, err?: unknown) => void;
}

export class JoinService {
  constructor(private readonly d: JoinServiceDeps) {}

  async createToken(
    params: { region: string; name?: string | undefined; expiresMinutes: number; createdBy: number | null },
    requestOrigin: string,
  ): Promise<JoinTokenCreatedReply> {
    const token = newJoinToken();
    const row = await this.d.repo.insertToken({
      token_hash: hashJoinToken(token),
      name: params.name ?? null,
      region: params.region,
      created_by: params.createdBy,
      expires_at: new Date(Date.now() + params.expiresMinutes * 60_000),
    });
    const origin = (this.d.publicUrl ?? requestOrigin).replace(/\/+$/, '');
    const scriptUrl = `${origin}/install/agent.sh`;
    return {
      token,
      id: row.id,
      expires_at: row.expires_at.toISOString(),
      command: `curl -fsSL ${scriptUrl} | sudo bash -s -- --join ${token}`,
      script_url: scriptUrl,
    };
  }

  async listTokens(): Promise<JoinTokenListReply> {
    const now = Date.now();
    return { items: (await this.d.repo.listTokens(50)).map((row) => joinTokenView(row, now)) };
  }

  /** Revokes an unused token (404 when there is none, 409 once it was used). */
  async revokeToken(id: number): Promise<void> {
    if (await this.d.repo.deleteUnused(id)) return;
    const row = await this.d.repo.findToken(id);
    if (!row) throw notFound('加入令牌不存在', 'JOIN_TOKEN_NOT_FOUND');
    throw conflict('加入令牌已被使用，无法撤销', 'JOIN_TOKEN_USED');
  }

  /**
   * An agent joins: the token must be unused and unexpired (401 otherwise, counted against the
   * client's address), the CSR's signature must verify with its P-256 key (400). In one
   * transaction: the token is marked used, the node is created (tls 'platform') and its
   * certificate signed. Then this replica dials the node until its agent answers.
   */
  async join(input: AgentJoinInput, clientIp: string): Promise<AgentJoinReply> {
    const limit = rule(this.d.failuresPerIp ?? DEFAULT_JOIN_FAILURES_PER_IP, MSG_JOIN_LIMIT);
    const ipKey = `agent-join:ip:${clientIp}`;
    await this.d.limiter.check(limit, ipKey);
    const refuse = async () => {
      await this.d.limiter.record(limit, ipKey);
      return unauthorized(MSG_BAD_JOIN_TOKEN, 'BAD_JOIN_TOKEN');
    };
    const tokenHash = hashJoinToken(input.token);
    if (!input.token.startsWith(TOKEN_PREFIX) || !(await this.d.repo.findUsable(tokenHash))) {
      throw await refuse();
    }
    if (!this.d.pki.available) throw new AppError(503, 'PKI_UNAVAILABLE', MSG_PKI_UNAVAILABLE);
    try {
      await parseAgentCsr(input.csr_pem);
    } catch (err) {
      if (err instanceof CsrError) throw badRequest(err.message, 'BAD_CSR');
      throw err;
    }
    const nodeToken = randomBytes(24).toString('hex');
    const joined = await this.d.repo.transaction(async (trx) => {
      const token = await this.d.repo.claim(tokenHash, trx);
      if (!token) return undefined;
      const node = await this.d.nodes.insertJoined(
        {
          name: token.name ?? nodeNameFrom(input.node_name),
          address: input.address ?? addressOf(clientIp, input.grpc_port),
          token: nodeToken,
          region: token.region,
          publicHost: input.public_host ?? null,
        },
        trx,
      );
      const signed = await this.d.pki.signAgentCsr(input.csr_pem, node.id);
      await this.d.repo.linkNode(token.id, node.id, trx);
      return { node, signed };
    });
    // Used by another join between the look-up and the claim.
    if (!joined) throw await refuse();
    const { node, signed } = joined;
    this.d.log(`node ${node.name} (${node.address}) joined`);
    this.d.newcomers.watch(node);
    return {
      node_id: node.id,
      node_token: nodeToken,
      certificate_pem: signed.certificatePem,
      ca_certificate_pem: signed.caCertificatePem,
      server_name: agentServerName(node.id),
    };
  }
}
