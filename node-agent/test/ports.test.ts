import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  freeHostPort,
  startTestAgent,
  type TestAgent,
  testSpec,
  unaryCall,
} from './helpers.js';

describe('ListOccupiedPorts', () => {
  let t: TestAgent;
  let listener: net.Server;
  let listenPort: number;
  let publishedPort: number;
  let stoppedPort: number;
  beforeAll(async () => {
    t = await startTestAgent();
    listenPort = await freeHostPort(41000, 49000);
    listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(listenPort, '127.0.0.1', resolve));
    publishedPort = await freeHostPort();
    stoppedPort = await freeHostPort();
    const running = await createRequest(t, {
      spec: testSpec(t, {
        ports: [{ containerPort: 22, hostPort: publishedPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
      }),
      start: true,
    });
    expect(running.startError).toBe('');
    await createRequest(t, {
      spec: testSpec(t, {
        ports: [{ containerPort: 22, hostPort: stoppedPort, protocol: 'PROTOCOL_TCP', name: 'ssh' }],
      }),
      start: false,
    });
  });
  afterAll(async () => {
    listener?.close();
    await t?.close();
  });

  it('lists host listeners, published ports and ports of stopped containers, sorted and unique', async () => {
    const { ports } = await unaryCall<{ ports: number[] }>((cb) => t.client.listOccupiedPorts({}, t.md, cb));
    expect(ports).toContain(listenPort);
    expect(ports).toContain(publishedPort);
    expect(ports).toContain(stoppedPort);
    expect(ports).toContain(t.agent.port); // the agent's own gRPC listener
    expect(ports).toEqual([...new Set(ports)].sort((a, b) => a - b));
  });
});
