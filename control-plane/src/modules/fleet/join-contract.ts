// The join API's replies (issue 19): the console's 添加节点 dialog and the agent's join read these.

/** POST /api/admin/nodes/join-tokens → 201 */
export interface JoinTokenCreatedReply {
  /** `gcj_…`: shown once, stored only as its hash. */
  token: string;
  id: number;
  expires_at: string;
  /** What to paste on the host. */
  command: string;
  script_url: string;
}

export type JoinTokenStatus = 'pending' | 'used' | 'expired';

export interface JoinTokenView {
  id: number;
  /** The node's name (the host's name at join when null). */
  name: string | null;
  region: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  node_id: number | null;
  status: JoinTokenStatus;
}

/** GET /api/admin/nodes/join-tokens: the last 50, newest first. */
export interface JoinTokenListReply {
  items: JoinTokenView[];
}

/** POST /api/agent/join → 201 */
export interface AgentJoinReply {
  node_id: number;
  /** The bearer token the agent checks on every call (`AGENT_TOKEN`). */
  node_token: string;
  /** The agent's certificate (PEM) for the key of its CSR, and the platform CA's. */
  certificate_pem: string;
  ca_certificate_pem: string;
  /** The name in the certificate, which the control plane checks: node-<id>.gpucloud.internal. */
  server_name: string;
}
