import { AgentClient, type AgentClientOptions, type AgentEndpoint } from './agent-client.js';

/**
 * How long a channel made with an older client certificate is kept after a new one came: calls
 * and streams under way on it go on (a closed channel only refuses new calls); a caller that
 * took the client just before may still make its next call on it.
 */
const RETIRED_GRACE_MS = 3600_000;

/**
 * One gRPC channel per agent endpoint, shared by every request of this process. Holds no
 * platform state: any replica can dial any agent. Platform nodes (tls 'platform') are dialled
 * with the platform CA and this replica's client certificate: after a new client certificate
 * (`platformRenewed`) new channels are made with it.
 */
export class AgentPool {
  private readonly clients = new Map<string, AgentClient>();
  private readonly retired = new Set<AgentClient>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: AgentClientOptions) {}

  private keyOf(endpoint: AgentEndpoint): string {
    if (endpoint.tls !== 'platform') return `${endpoint.address}\u0000${endpoint.token}`;
    const generation = this.options.platformTls?.()?.generation ?? 0;
    return `platform\u0000${endpoint.id}\u0000${generation}\u0000${endpoint.address}\u0000${endpoint.token}`;
  }

  get(endpoint: AgentEndpoint): AgentClient {
    const key = this.keyOf(endpoint);
    let client = this.clients.get(key);
    if (!client) {
      client = new AgentClient(endpoint, this.options);
      this.clients.set(key, client);
    }
    return client;
  }

  /** A client that is not kept (for probing an endpoint before it is registered). */
  transient(endpoint: AgentEndpoint): AgentClient {
    return new AgentClient(endpoint, this.options);
  }

  /**
   * This replica has a new client certificate: platform nodes' channels are made again with it;
   * the old ones are closed after a grace (what runs on them goes on until then).
   */
  platformRenewed(): void {
    for (const [key, client] of this.clients) {
      if (client.endpoint.tls !== 'platform') continue;
      this.clients.delete(key);
      this.retire(client);
    }
  }

  /**
   * Drops the node's cached channel (a node that was just joined: a channel that failed while
   * its agent was not up yet waits out its reconnection backoff; a new one dials at once).
   */
  forget(endpoint: AgentEndpoint): void {
    const key = this.keyOf(endpoint);
    const client = this.clients.get(key);
    if (!client) return;
    this.clients.delete(key);
    this.retire(client);
  }

  private retire(client: AgentClient): void {
    this.retired.add(client);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.retired.delete(client);
      client.close();
    }, RETIRED_GRACE_MS);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const client of [...this.clients.values(), ...this.retired]) client.close();
    this.clients.clear();
    this.retired.clear();
  }
}
