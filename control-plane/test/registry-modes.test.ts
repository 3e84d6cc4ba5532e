// The registry's other states and its process's care: an external registry (REGISTRY_URL with a
// robot account: here a real docker-registry with basic auth), none at all (503 镜像仓库未配置),
// and an embedded registry left running by a control plane killed with SIGKILL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalRegistry } from '../../node-agent/test/local-registry.js';
import { AppError } from '../src/framework/errors.js';
import { registryKeys } from '../src/modules/images/registry-keys.js';
import { freeLoopbackPort, RegistryProcess } from '../src/modules/images/registry-process.js';
import { createRegistry } from '../src/modules/images/registry-service.js';
import { DEFAULT_REGISTRY_BINARY } from '../src/registry-settings.js';
import { startTestControlPlane } from './harness.js';
import { forget, freshImage, pull, push, startBasicAuthRegistry } from './registry-docker.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('an external registry (REGISTRY_URL)', () => {
  it('hands its robot account as every grant and deletes with it', async () => {
    const robot = { username: 'robot', password: randomBytes(8).toString('hex') };
    const external = await startBasicAuthRegistry(robot);
    cleanups.push(() => external.close());
    const registry = await createRegistry({
      settings: { kind: 'external', url: `http://${external.address}`, ...robot },
      secretKey: randomBytes(32),
      log: () => {},
    });
    expect(registry.status).toBe('external');
    expect(registry.host).toBe(external.address);
    const repository = registry.repositoryFor(5, 9);
    // Not scoped: the registry's own permissions are all there is (the README says so).
    expect(registry.grant(repository, ['pull'])).toEqual({ server_address: external.address, ...robot });
    expect(registry.grant('u6/img1', ['push'])).toEqual(registry.grant(repository, ['pull']));
    expect(() => registry.issueToken({ authorization: undefined, service: undefined, scopes: [] })).toThrow(
      AppError,
    );

    const { ref, id } = await freshImage(`${registry.host}/${repository}`, 'v1');
    cleanups.push(() => forget(id));
    const digest = await push(ref, registry.grant(repository, ['pull', 'push']));
    await forget(id);
    expect(await pull(ref, registry.grant(repository, ['pull']))).toBe('pulled');
    await forget(id);
    // Wrong credentials are refused: the grant is what opens it.
    expect(await pull(ref, { server_address: registry.host, username: 'robot', password: 'wrong' })).not.toBe(
      'pulled',
    );

    await registry.deleteImage(repository, digest);
    expect(await pull(ref, registry.grant(repository, ['pull']))).toMatch(/not found|unknown/i);
    await expect(registry.deleteImage(repository, digest)).resolves.toBeUndefined();
  });

  it('says so when the registry does not allow deleting', async () => {
    const robot = { username: 'robot', password: randomBytes(8).toString('hex') };
    // node-agent's test registry keeps distribution's default: deletes off.
    const external = await startLocalRegistry(robot);
    cleanups.push(() => external.close());
    const registry = await createRegistry({
      settings: { kind: 'external', url: `http://${external.address}`, ...robot },
      secretKey: randomBytes(32),
      log: () => {},
    });
    const repository = registry.repositoryFor(5, 10);
    const { ref, id } = await freshImage(`${registry.host}/${repository}`, 'v1');
    cleanups.push(() => forget(id));
    const digest = await push(ref, registry.grant(repository, ['push']));
    await expect(registry.deleteImage(repository, digest)).rejects.toThrow(/does not allow deleting/);
  });
});

describe('no registry', () => {
  it('answers every use with 503 镜像仓库未配置', async () => {
    const cp = await startTestControlPlane();
    cleanups.push(() => cp.close());
    const registry = cp.services.registry;
    expect(registry.status).toBe('off');
    const res = await fetch(`${cp.url}/api/registry/token?service=gpucloud-registry`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toBe('镜像仓库未配置');
    expect(() => registry.grant('u1/img1', ['pull'])).toThrow('镜像仓库未配置');
    await expect(registry.deleteImage('u1/img1', `sha256:${'0'.repeat(64)}`)).rejects.toThrow(
      '镜像仓库未配置',
    );
  });
});

describe('the embedded registry’s process', () => {
  it('stops the registry a killed control plane left on its port, then serves', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-registry-left-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const keys = registryKeys(randomBytes(32));
    const options = {
      binary: DEFAULT_REGISTRY_BINARY,
      dataDir,
      port: await freeLoopbackPort(),
      certificatePem: keys.certificatePem,
      httpSecret: keys.httpSecret,
      log: () => {},
    };
    const realm = 'http://127.0.0.1:9/api/registry/token';
    // The first run writes its configuration; then its registry is left behind as after SIGKILL.
    const first = new RegistryProcess(options);
    await first.start(realm);
    await first.close();
    const leftover = spawn(DEFAULT_REGISTRY_BINARY, ['serve', path.join(dataDir, 'config.yml')], {
      stdio: 'ignore',
      detached: true,
    });
    const leftoverExit = new Promise((resolve) => leftover.once('exit', resolve));
    await fs.writeFile(path.join(dataDir, 'registry.pid'), `${leftover.pid}\n`);
    await new RegistryProcess(options).untilServing(10_000); // the leftover answers on the port

    const next = new RegistryProcess(options);
    cleanups.push(() => next.close());
    await next.start(realm);
    await leftoverExit;
    expect(next.pid).toBeGreaterThan(0);
    expect(next.pid).not.toBe(leftover.pid);
    expect((await fetch(`http://${next.address}/v2/`)).status).toBe(401);
    expect(next.restarts).toBe(0);
  });
});
