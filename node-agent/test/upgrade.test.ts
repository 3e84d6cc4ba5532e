// UpgradeAgent over real gRPC with a real bundle file (tar.gz) unpacked by tar: the checks on
// the way in (token, install, size, SHA-256, VERSION, the new agent's --version), the switch of
// `current`, and the restart asked for only after the answer.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AUTH_METADATA_KEY,
  agentServiceDefinition,
  loadAgentProto,
  type NodeAgentClient,
  type UpgradeAgentResponse__Output,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_FROM_BUNDLE, upgradeAgentHandler } from '../src/fleet/upgrade.js';

const TOKEN = 'upgrade-test-token';
const root = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-upgrade-'));

/** A bundle as fleet/bundle.ts lays it out: gpucloud-agent/{bin/gpucloud-agent, VERSION}. */
function makeBundle(version: string, build: string, says = `${version} build ${build}`) {
  const src = mkdtempSync(path.join(root, 'src-'));
  const dir = path.join(src, 'gpucloud-agent');
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  writeFileSync(path.join(dir, 'VERSION'), JSON.stringify({ version, build, protocol: 1 }));
  writeFileSync(
    path.join(dir, 'bin', 'gpucloud-agent'),
    `#!/bin/sh\necho "gpucloud-agent ${says} protocol 1"\n`,
  );
  chmodSync(path.join(dir, 'bin', 'gpucloud-agent'), 0o755);
  const file = path.join(src, 'bundle.tar.gz');
  execFileSync('tar', ['-czf', file, '-C', src, 'gpucloud-agent']);
  const bytes = readFileSync(file);
  return { bytes, version, build, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function makeInstall(): string {
  const install = mkdtempSync(path.join(root, 'install-'));
  mkdirSync(path.join(install, 'versions', '0.0.1-old000000000', 'bin'), { recursive: true });
  symlinkSync(path.join('versions', '0.0.1-old000000000'), path.join(install, 'current'));
  return install;
}

interface Served {
  client: NodeAgentClient;
  restarts: number;
  close(): void;
}

async function serve(installDir: string | undefined): Promise<Served> {
  const server = new grpc.Server();
  const served = { restarts: 0 } as Served;
  server.addService(agentServiceDefinition(), {
    UpgradeAgent: upgradeAgentHandler({
      installDir,
      token: TOKEN,
      log: () => {},
      restart: () => {
        served.restarts++;
      },
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const Ctor = loadAgentProto().gpucloud.agent.v1.NodeAgent;
  served.client = new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  served.close = () => {
    served.client.close();
    server.forceShutdown();
  };
  return served;
}

function upgrade(
  client: NodeAgentClient,
  bundle: ReturnType<typeof makeBundle>,
  opts: { token?: string; sha256?: string; size?: number; bytes?: Buffer } = {},
): Promise<UpgradeAgentResponse__Output> {
  const md = new grpc.Metadata();
  md.set(AUTH_METADATA_KEY, `Bearer ${opts.token ?? TOKEN}`);
  return new Promise((resolve, reject) => {
    const call = client.UpgradeAgent(md, (err, res) =>
      err ? reject(err) : resolve(res as UpgradeAgentResponse__Output),
    );
    const bytes = opts.bytes ?? bundle.bytes;
    call.write({
      header: {
        version: bundle.version,
        build: bundle.build,
        sizeBytes: opts.size ?? bytes.length,
        sha256: opts.sha256 ?? bundle.sha256,
      },
    });
    for (let at = 0; at < bytes.length; at += 64 * 1024)
      call.write({ chunk: bytes.subarray(at, at + 64 * 1024) });
    call.end();
  });
}

let served: Served;
let install: string;

beforeAll(async () => {
  install = makeInstall();
  served = await serve(install);
});

afterAll(() => {
  served?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('UpgradeAgent', () => {
  it('refuses a call without the node token', async () => {
    const bundle = makeBundle('9.9.9', 'aaaaaaaaaaaa');
    await expect(upgrade(served.client, bundle, { token: 'wrong' })).rejects.toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
    });
  });

  it('refuses with FAILED_PRECONDITION where the agent does not run from an install', async () => {
    const plain = await serve(undefined);
    try {
      const bundle = makeBundle('9.9.9', 'aaaaaaaaaaaa');
      await expect(upgrade(plain.client, bundle)).rejects.toMatchObject({
        code: grpc.status.FAILED_PRECONDITION,
        details: NOT_FROM_BUNDLE,
      });
      expect(plain.restarts).toBe(0);
    } finally {
      plain.close();
    }
  });

  it('refuses a bundle whose SHA-256 or size does not match, and leaves current as it was', async () => {
    const bundle = makeBundle('9.9.9', 'bbbbbbbbbbbb');
    await expect(upgrade(served.client, bundle, { sha256: 'f'.repeat(64) })).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: '安装包的 SHA-256 校验失败',
    });
    await expect(upgrade(served.client, bundle, { size: bundle.bytes.length + 10 })).rejects.toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
      details: expect.stringContaining('安装包不完整'),
    });
    // A bundle whose agent reports another version is not made current.
    const liar = makeBundle('9.9.9', 'cccccccccccc', '1.0.0 build zzz');
    await expect(upgrade(served.client, liar)).rejects.toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      details: expect.stringContaining('新版本代理报告的版本不符'),
    });
    expect(readlinkSync(path.join(install, 'current'))).toBe(path.join('versions', '0.0.1-old000000000'));
    expect(served.restarts).toBe(0);
    // Nothing half-received is left behind.
    expect(
      execFileSync('ls', ['-A', path.join(install, 'versions')])
        .toString()
        .trim()
        .split('\n'),
    ).toEqual(['0.0.1-old000000000']);
  });

  it('installs a good bundle beside the old version, switches current, then asks for the restart', async () => {
    const bundle = makeBundle('9.9.9', 'dddddddddddd');
    const answer = await upgrade(served.client, bundle);
    expect(answer).toMatchObject({ version: '9.9.9', build: 'dddddddddddd' });
    expect(readlinkSync(path.join(install, 'current'))).toBe(path.join('versions', '9.9.9-dddddddddddd'));
    const installed = execFileSync(path.join(install, 'current', 'bin', 'gpucloud-agent'), [
      '--version',
    ]).toString();
    expect(installed).toContain('9.9.9 build dddddddddddd');
    // The version it replaced stays (to go back to by hand).
    expect(
      execFileSync('ls', ['-A', path.join(install, 'versions')])
        .toString()
        .trim()
        .split('\n')
        .sort(),
    ).toEqual(['0.0.1-old000000000', '9.9.9-dddddddddddd']);
    await new Promise((r) => setTimeout(r, 300));
    expect(served.restarts).toBe(1);
  });
});
