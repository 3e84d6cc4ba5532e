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

async function api<T>(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(platform.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe('SSH into a rented container', () => {
  it('connects with the host, port and password the platform shows, and runs a command', async () => {
    const reg = await api<{ token: string }>('POST', '/api/auth/register', undefined, {
      username: 'sshuser',
      password: 'secret123',
      email: 'ssh@example.com',
    });
    const token = reg.body.token;
    const products = await api<{ items: { id: number; price: number }[] }>(
      'GET',
      '/api/cloud-products',
      token,
    );
    const product = products.body.items[0];
    if (!product) throw new Error('no product');
    const frameworks = await api<{ id: number; name: string }[]>('GET', '/api/frameworks', token);
    const base = frameworks.body.find((f) => f.name === 'Base');
    if (!base) throw new Error('no Base framework');
    const versions = await api<{ id: number }[]>('GET', `/api/frameworks/${base.id}/versions`, token);
    const purchase = await api<{ container_id: string; started: boolean }>(
      'POST',
      `/api/cloud-products/${product.id}/purchase`,
      token,
      {
        instanceName: 'ssh-test',
        gpuCount: 2,
        framework: base.id,
        frameworkVersion: versions.body[0]?.id,
        agreeTerms: true,
        billing_type: 'hourly',
        duration: 1,
        total_price: Math.round(product.price * 2 * 100) / 100,
      },
    );
    expect(purchase.status).toBe(201);
    expect(purchase.body.started).toBe(true);

    const c = await api<{ ssh_server: string; ssh_port: number; password: string; gpu_indices: number[] }>(
      'GET',
      `/api/containers/${purchase.body.container_id}`,
      token,
    );
    const out = await sshExec({
      host: c.body.ssh_server,
      port: c.body.ssh_port,
      password: c.body.password,
      command: 'echo "hello from $(hostname)"; echo "gpus=$NVIDIA_VISIBLE_DEVICES"; id -u',
    });
    expect(out).toMatch(/hello from \w+/);
    expect(out).toContain('0\n');
    const wrong = sshExec({
      host: c.body.ssh_server,
      port: c.body.ssh_port,
      password: 'not-the-password',
      command: 'true',
      timeoutMs: 3000,
    });
    await expect(wrong).rejects.toThrow();
  });
});
