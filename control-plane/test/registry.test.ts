// The embedded registry for real: Debian's docker-registry run by the control plane, the control
// plane as its token server, and the test Docker engine pushing and pulling with grants as an
// agent does (dockerode's authconfig = the proto's RegistryAuth).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryGrant } from '../src/modules/images/registry.js';
import { registryKeys } from '../src/modules/images/registry-keys.js';
import { createRegistry } from '../src/modules/images/registry-service.js';
import { GRANT_USERNAME, signGrant } from '../src/modules/images/registry-tokens.js';
import type { RunningControlPlane } from '../src/platform.js';
import { DEFAULT_REGISTRY_BINARY } from '../src/registry-settings.js';
import { startTestControlPlane } from './harness.js';
import { docker, forget, freshImage, pull, push } from './registry-docker.js';

const secretKey = randomBytes(32);
let cp: RunningControlPlane;
let closed = false;
let dataDir: string;
/** The images this file made, by reference: their ids. */
const images = new Map<string, string>();

const registry = () => cp.services.registry;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-registry-test-'));
  cp = await startTestControlPlane({
    secretKey,
    registry: { kind: 'embedded', binary: DEFAULT_REGISTRY_BINARY, port: 0, dataDir },
  });
});

afterAll(async () => {
  for (const id of images.values()) await forget(id);
  if (!closed) await cp?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** `<host>/<repository>:v1`, an image of its own (removed after the file). */
async function localImage(repository: string): Promise<string> {
  const { ref, id } = await freshImage(`${registry().host}/${repository}`, 'v1');
  images.set(ref, id);
  return ref;
}

/** Removes the local image of `ref` (every name it has), so a pull must fetch it. */
const drop = (ref: string) => forget(images.get(ref) as string);

const basic = (grant: RegistryGrant) =>
  `Basic ${Buffer.from(`${grant.username}:${grant.password}`).toString('base64')}`;

async function token(authorization: string | undefined, scopes: string[]) {
  const url = new URL(`${cp.url}/api/registry/token`);
  url.searchParams.set('service', 'gpucloud-registry');
  for (const scope of scopes) url.searchParams.append('scope', scope);
  const res = await fetch(url, { headers: authorization ? { authorization } : {} });
  return { status: res.status, body: (await res.json()) as { token?: string; detail?: string } };
}

const claims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as {
    access: Array<{ type: string; name: string; actions: string[] }>;
    exp: number;
    iat: number;
  };

describe('the embedded registry', () => {
  it('runs on a free port of 127.0.0.1, checking tokens', async () => {
    expect(registry().status).toBe('embedded');
    expect(registry().host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(registry().host).not.toBe('127.0.0.1:0');
    const res = await fetch(`http://${registry().host}/v2/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="${cp.url}/api/registry/token",service="gpucloud-registry"`,
    );
  });

  it('pushes an image with a push grant for u1/img1 and pulls it with a pull grant', async () => {
    const repository = registry().repositoryFor(1, 1);
    expect(repository).toBe('u1/img1');
    const ref = await localImage(repository);
    const digest = await push(ref, registry().grant(repository, ['pull', 'push']));
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    await drop(ref);
    await expect(
      pull(`${registry().host}/${repository}@${digest}`, registry().grant(repository, ['pull'])),
    ).resolves.toBe('pulled');
  });

  it('a grant for u1/img1 cannot pull u2/img2, and a pull-only grant cannot push', async () => {
    const other = registry().repositoryFor(2, 2);
    const otherRef = await localImage(other);
    await push(otherRef, registry().grant(other, ['pull', 'push']));
    await drop(otherRef);

    const mine = registry().repositoryFor(1, 1);
    const pulled = await pull(otherRef, registry().grant(mine, ['pull', 'push']));
    expect(pulled).not.toBe('pulled');
    expect(pulled).toMatch(/denied|unauthorized|authentication required/i);
    // The grant's credentials sent for the other repository's server address change nothing.
    await expect(
      pull(otherRef, { ...registry().grant(mine, ['pull']), server_address: registry().host }),
    ).resolves.not.toBe('pulled');

    const ref = await localImage(registry().repositoryFor(1, 3));
    await expect(push(ref, registry().grant(registry().repositoryFor(1, 3), ['pull']))).rejects.toThrow(
      /denied|unauthorized|authentication required/i,
    );
    // Its own pull grant still pulls (the refusals above are not the registry being down).
    await expect(pull(otherRef, registry().grant(other, ['pull']))).resolves.toBe('pulled');
  });

  it('gives a token the grant’s actions on the grant’s repository only, never the catalog', async () => {
    const grant = registry().grant('u1/img1', ['pull', 'push']);
    const answer = await token(basic(grant), [
      'repository:u1/img1:pull,push,delete,*',
      'repository:u2/img2:pull',
      'registry:catalog:*',
    ]);
    expect(answer.status).toBe(200);
    const jwt = answer.body.token as string;
    expect(claims(jwt).access).toEqual([{ type: 'repository', name: 'u1/img1', actions: ['pull', 'push'] }]);
    expect(claims(jwt).exp - claims(jwt).iat).toBeGreaterThan(0);

    const at = (p: string) =>
      fetch(`http://${registry().host}${p}`, { headers: { authorization: `Bearer ${jwt}` } }).then(
        (r) => r.status,
      );
    expect(await at('/v2/u1/img1/tags/list')).toBe(200);
    expect(await at('/v2/u2/img2/tags/list')).toBe(401);
    expect(await at('/v2/_catalog')).toBe(401);

    // A pull grant asked for push gets pull only; asked for another repository, nothing.
    const pullOnly = registry().grant('u1/img1', ['pull']);
    expect(
      claims((await token(basic(pullOnly), ['repository:u1/img1:pull,push'])).body.token as string).access,
    ).toEqual([{ type: 'repository', name: 'u1/img1', actions: ['pull'] }]);
    expect(
      claims((await token(basic(pullOnly), ['repository:u2/img2:pull'])).body.token as string).access,
    ).toEqual([]);
    expect(
      claims((await token(basic(pullOnly), ['registry:catalog:*'])).body.token as string).access,
    ).toEqual([]);
  });

  it('refuses an expired, a tampered or a missing grant with 401 and a Chinese detail', async () => {
    const keys = registryKeys(secretKey);
    const expired = signGrant(keys.grantKey, {
      repository: 'u1/img1',
      actions: ['pull'],
      expiresAt: Date.now() - 1,
    });
    const answers = [
      await token(basic({ server_address: '', username: GRANT_USERNAME, password: expired }), [
        'repository:u1/img1:pull',
      ]),
      await token(
        basic({
          ...registry().grant('u1/img1', ['pull']),
          password: tamper(registry().grant('u1/img1', ['pull']).password),
        }),
        ['repository:u1/img1:pull'],
      ),
      // Signed with another SECRET_KEY: another platform's grant.
      await token(
        basic({
          server_address: '',
          username: GRANT_USERNAME,
          password: signGrant(registryKeys(randomBytes(32)).grantKey, {
            repository: 'u1/img1',
            actions: ['pull'],
            expiresAt: Date.now() + 60_000,
          }),
        }),
        ['repository:u1/img1:pull'],
      ),
      await token(undefined, ['repository:u1/img1:pull']),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.detail).toMatch(/镜像仓库凭据/);
      expect(answer.body.token).toBeUndefined();
    }
    // An expired grant handed to Docker does not pull.
    await expect(
      pull(`${registry().host}/u1/img1:v1`, {
        server_address: registry().host,
        username: GRANT_USERNAME,
        password: expired,
      }),
    ).resolves.not.toBe('pulled');
  });

  it('deleteImage removes the image: a pull fails afterwards; deleting again is fine', async () => {
    const repository = registry().repositoryFor(3, 7);
    const ref = await localImage(repository);
    const digest = await push(ref, registry().grant(repository, ['pull', 'push']));
    // The same image under another repository (the same manifest, the same digest).
    const twin = registry().repositoryFor(3, 8);
    await docker()
      .getImage(ref)
      .tag({ repo: `${registry().host}/${twin}`, tag: 'v1' });
    expect(await push(`${registry().host}/${twin}:v1`, registry().grant(twin, ['pull', 'push']))).toBe(
      digest,
    );
    await drop(ref);
    expect(await pull(ref, registry().grant(repository, ['pull']))).toBe('pulled');
    await drop(ref);

    await registry().deleteImage(repository, digest);
    // By tag: the tag went with the manifest.
    expect(await pull(ref, registry().grant(repository, ['pull']))).toMatch(/not found|unknown/i);
    // By digest, the registry's own answer (the engine would answer a pull by digest from its
    // local cache of manifests without asking).
    const pullToken = (
      await token(basic(registry().grant(repository, ['pull'])), [`repository:${repository}:pull`])
    ).body.token;
    const manifest = await fetch(`http://${registry().host}/v2/${repository}/manifests/${digest}`, {
      headers: {
        authorization: `Bearer ${pullToken}`,
        accept: 'application/vnd.docker.distribution.manifest.v2+json',
      },
    });
    expect(manifest.status).toBe(404);
    // The twin is untouched.
    expect(await pull(`${registry().host}/${twin}:v1`, registry().grant(twin, ['pull']))).toBe('pulled');
    await drop(ref);
    await expect(registry().deleteImage(repository, digest)).resolves.toBeUndefined();
  });

  it('is started again when it dies', async () => {
    const pid = registry().processId();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid as number, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    let serving = false;
    while (Date.now() < deadline && !serving) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = registry().processId();
      if (now === undefined || now === pid) continue;
      serving = await fetch(`http://${registry().host}/v2/`).then(
        (r) => r.status === 401,
        () => false,
      );
    }
    expect(serving).toBe(true);
    const repository = registry().repositoryFor(1, 1);
    await expect(
      pull(`${registry().host}/${repository}:v1`, registry().grant(repository, ['pull'])),
    ).resolves.toBe('pulled');
  });

  it('agrees with another replica on the same SECRET_KEY: its grants and tokens work here', async () => {
    const replica = await createRegistry({
      settings: {
        kind: 'embedded',
        binary: DEFAULT_REGISTRY_BINARY,
        port: 0,
        dataDir: path.join(dataDir, 'replica'),
      },
      secretKey: Buffer.from(secretKey),
      log: () => {},
    });
    const repository = registry().repositoryFor(1, 1);
    // A grant the other replica minted, traded here, pulls here.
    const grant = { ...replica.grant(repository, ['pull']), server_address: registry().host };
    await forget(images.get(`${registry().host}/${repository}:v1`) as string);
    expect(await pull(`${registry().host}/${repository}:v1`, grant)).toBe('pulled');
    // A token the other replica signed is trusted by the registry this one runs.
    const { token: jwt } = replica.issueToken({
      authorization: basic(grant),
      service: 'gpucloud-registry',
      scopes: [`repository:${repository}:pull`],
    });
    const res = await fetch(`http://${registry().host}/v2/${repository}/tags/list`, {
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(res.status).toBe(200);
    // Another SECRET_KEY's tokens are not.
    const stranger = await createRegistry({
      settings: {
        kind: 'embedded',
        binary: DEFAULT_REGISTRY_BINARY,
        port: 0,
        dataDir: path.join(dataDir, 'stranger'),
      },
      secretKey: randomBytes(32),
      log: () => {},
    });
    const foreign = stranger.issueToken({
      authorization: basic(stranger.grant(repository, ['pull'])),
      service: 'gpucloud-registry',
      scopes: [`repository:${repository}:pull`],
    }).token;
    const refused = await fetch(`http://${registry().host}/v2/${repository}/tags/list`, {
      headers: { authorization: `Bearer ${foreign}` },
    });
    expect(refused.status).toBe(401);
  });

  it('stores its images under its data folder', async () => {
    const files = await fs.readdir(
      path.join(dataDir, 'data', 'docker', 'registry', 'v2', 'repositories', 'u1'),
    );
    expect(files).toContain('img1');
  });

  it('stops with the control plane', async () => {
    const pid = registry().processId() as number;
    expect(pid).toBeGreaterThan(0);
    closed = true;
    await cp.close();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    await expect(fs.access(path.join(dataDir, 'registry.pid'))).rejects.toThrow();
  });
});

/** Changes one character of the grant's payload (its signature no longer matches). */
function tamper(password: string): string {
  const [v, payload, mac] = password.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { r: string };
  decoded.r = 'u2/img2';
  return [v, Buffer.from(JSON.stringify(decoded)).toString('base64url'), mac].join('.');
}
