import { ApiClient } from '@gpucloud/control-plane/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Platform, startPlatform } from './platform.js';
import { sshExec } from './ssh.js';

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform({ console: false });
});
afterAll(async () => {
  await platform?.close();
});

interface Container {
  container_id: string;
  ssh_server: string;
  ssh_port: number;
  password: string;
  status: string;
  custom_ports: number[];
}

/** Registers a user (e-mail code from the sandbox outbox) and buys an hourly Base instance. */
async function rent(username: string, gpuCount: number): Promise<{ api: ApiClient; container: Container }> {
  const api = new ApiClient(platform.url);
  await api.register(username);
  const products = await api.request<{ items: { id: number; price: number }[] }>(
    'GET',
    '/api/cloud-products',
  );
  const product = products.body.items[0];
  if (!product) throw new Error('no product');
  const frameworks = await api.request<{ id: number; name: string }[]>('GET', '/api/frameworks');
  const base = frameworks.body.find((f) => f.name === 'Base');
  if (!base) throw new Error('no Base framework');
  const versions = await api.request<{ id: number }[]>('GET', `/api/frameworks/${base.id}/versions`);
  const purchase = await api.request<{ container_id: string; status: string }>(
    'POST',
    `/api/cloud-products/${product.id}/purchase`,
    {
      instanceName: `${username}-box`,
      gpuCount,
      framework: base.id,
      frameworkVersion: versions.body[0]?.id,
      agreeTerms: true,
      billing_type: 'hourly',
      duration: 1,
      total_price: Math.round(product.price * gpuCount * 100) / 100,
    },
  );
  expect(purchase.status).toBe(201);
  expect(purchase.body.status).toBe('creating');
  // The client waited until the node provisioned it (test-harness).
  const container = await api.request<Container>('GET', `/api/containers/${purchase.body.container_id}`);
  expect(container.body.status).toBe('running');
  return { api, container: container.body };
}

const ssh = (c: Container, command: string, password = c.password) =>
  sshExec({ host: c.ssh_server, port: c.ssh_port, password, command });

describe('SSH into a rented container', () => {
  it('connects with the host, port and password the platform shows, and runs a command', async () => {
    const { container } = await rent('sshuser', 2);
    const out = await ssh(container, 'echo "hello from $(hostname)"; id -u');
    expect(out).toMatch(/hello from \w+/);
    expect(out).toContain('0\n');
    await expect(
      sshExec({
        host: container.ssh_server,
        port: container.ssh_port,
        password: 'not-the-password',
        command: 'true',
        timeoutMs: 3000,
      }),
    ).rejects.toThrow();
  });

  it('keeps the files the user wrote across a port change and a stop/start, and a reset password works', async () => {
    const { api, container } = await rent('sshfiles', 1);
    const id = container.container_id;
    await ssh(container, 'mkdir -p /root/work && echo "epoch-1 weights" > /root/work/model.txt');

    const port = 15000 + Math.floor(Math.random() * 4000);
    const changed = await api.request<Container>('POST', `/api/containers/${id}/ports`, { ports: [port] });
    expect(changed.status).toBe(200);
    expect(changed.body.custom_ports).toEqual([port]);
    expect(await ssh(changed.body, 'cat /root/work/model.txt')).toContain('epoch-1 weights');

    expect((await api.request<Container>('POST', `/api/containers/${id}/stop`)).body.status).toBe('stopped');
    const restarted = await api.request<Container>('POST', `/api/containers/${id}/start`);
    expect(restarted.body.status).toBe('running');
    expect(await ssh(restarted.body, 'cat /root/work/model.txt')).toContain('epoch-1 weights');

    const reset = await api.request<{ password: string }>('POST', `/api/containers/${id}/reset-password`);
    expect(await ssh(restarted.body, 'echo new-password-works', reset.body.password)).toContain(
      'new-password-works',
    );
    await expect(
      sshExec({
        host: container.ssh_server,
        port: restarted.body.ssh_port,
        password: container.password,
        command: 'true',
        timeoutMs: 3000,
      }),
    ).rejects.toThrow();
  });
});
