import { AgentClient, type AgentClientOptions, type AgentEndpoint } from './agent-client.js';

/**
 * One gRPC channel per agent endpoint, shared by every request of this process. Holds no
 * platform state: any replica can dial any agent.
 */
export class AgentPool {
  private readonly clients = new Map<string, AgentClient>();

  constructor(private readonly options: AgentClientOptions) {}

  get(endpoint: AgentEndpoint): AgentClient {
    const key = `${endpoint.address}\u0000${endpoint.token}`;
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

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
