// The test Docker engine pushing and pulling with registry grants, as an agent does (dockerode's
// authconfig carries the proto's RegistryAuth).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { inject } from 'vitest';
import type { RegistryGrant } from '../src/modules/images/registry.js';
import { freeLoopbackPort } from '../src/modules/images/registry-process.js';
import { DEFAULT_REGISTRY_BINARY } from '../src/registry-settings.js';

/** A small image every test engine has (scripts/lib/test-images.mjs). */
export const SOURCE_IMAGE = 'gpucloud-test/busybox-sh:local';

export const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

const authconfig = (grant: RegistryGrant) => ({
  username: grant.username,
  password: grant.password,
  serveraddress: grant.server_address,
});

interface ProgressEvent {
  error?: string;
  aux?: { Digest?: string };
}

function follow(stream: NodeJS.ReadableStream): Promise<ProgressEvent[]> {
  return new Promise((resolve, reject) =>
    docker().modem.followProgress(stream, (err: Error | null, events: ProgressEvent[]) =>
      err ? reject(err) : resolve(events),
    ),
  );
}

/**
 * A new image of its own (the source image's filesystem, a unique label) tagged `repo:tag`, so
 * the source image collects no names and no digests and each push is a manifest never seen.
 * Returns the reference and the image's id (forget() removes it with every name it has).
 */
export async function freshImage(repo: string, tag: string): Promise<{ ref: string; id: string }> {
  const container = await docker().createContainer({
    Image: SOURCE_IMAGE,
    Labels: { 'gpucloud.test.registry': randomUUID() },
  });
  try {
    const { Id } = (await container.commit({ repo, tag })) as { Id: string };
    return { ref: `${repo}:${tag}`, id: Id };
  } finally {
    await container.remove({ force: true });
  }
}

/** Removes an image with every name and digest it has; an absent one is fine. */
export async function forget(id: string): Promise<void> {
  await docker()
    .getImage(id)
    .remove({ force: true })
    .catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
}

/** Pushes `ref` with the grant; resolves with the pushed manifest's digest, rejects with Docker's words. */
export async function push(ref: string, grant: RegistryGrant): Promise<string> {
  const events = await follow(
    await docker()
      .getImage(ref)
      .push({ authconfig: authconfig(grant) }),
  );
  const failed = events.find((e) => e.error);
  if (failed) throw new Error(`push ${ref}: ${failed.error}`);
  const digest = events.find((e) => e.aux?.Digest)?.aux?.Digest;
  if (!digest) throw new Error(`push ${ref}: no digest in ${JSON.stringify(events)}`);
  return digest;
}

/** Pulls `ref` with the grant: 'pulled', or Docker's words for why not. */
export async function pull(ref: string, grant: RegistryGrant): Promise<string> {
  try {
    const events = await follow(await docker().pull(ref, { authconfig: authconfig(grant) }));
    if (process.env.REG_DEBUG) console.log('PULL', ref, JSON.stringify(events));
    const failed = events.find((e) => e.error);
    return failed ? (failed.error as string) : 'pulled';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * A registry as an external one is often set up: docker-registry with basic auth (htpasswd) and
 * deleting allowed, on a free port of 127.0.0.1 (Docker talks plain HTTP to 127.0.0.0/8).
 */
export async function startBasicAuthRegistry(credentials: {
  username: string;
  password: string;
}): Promise<{ address: string; close(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-external-registry-'));
  const address = `127.0.0.1:${await freeLoopbackPort()}`;
  const htpasswd = execFileSync('/usr/bin/htpasswd', ['-Bbn', credentials.username, credentials.password], {
    encoding: 'utf8',
  });
  await fs.writeFile(path.join(dir, 'htpasswd'), htpasswd);
  await fs.writeFile(
    path.join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${JSON.stringify(path.join(dir, 'data'))}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: ${address}`,
      'auth:',
      '  htpasswd:',
      '    realm: external',
      `    path: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(DEFAULT_REGISTRY_BINARY, ['serve', path.join(dir, 'config.yml')], {
    stdio: 'ignore',
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 15_000;
  for (;;) {
    const status = await fetch(`http://${address}/v2/`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 401) return { address, close };
    if (Date.now() > until || child.exitCode !== null) {
      await close();
      throw new Error(`the external registry did not start on ${address}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
