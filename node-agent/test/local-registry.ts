// A minimal Docker registry (distribution API v2, read only) on 127.0.0.1 serving one local
// image, with optional basic auth. Docker treats 127.0.0.0/8 registries as insecure (plain
// HTTP) by default, so the engine can pull from it without any internet access.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type Docker from 'dockerode';

const MANIFEST_TYPE = 'application/vnd.docker.distribution.manifest.v2+json';

export interface LocalRegistry {
  /** host:port */
  address: string;
  close(): Promise<void>;
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** Serves `image` (present in the engine) as `<address>/<repository>:<tag>`. */
export async function startLocalRegistry(
  docker: Docker,
  image: string,
  repository: string,
  tag: string,
  credentials?: { username: string; password: string },
): Promise<LocalRegistry> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-registry-'));
  const tarFile = path.join(work, 'image.tar');
  await pipeline(await docker.getImage(image).get(), createWriteStream(tarFile));
  await promisify(execFile)('tar', ['-xf', tarFile, '-C', work]);
  const saved: unknown = JSON.parse(await fs.readFile(path.join(work, 'manifest.json'), 'utf8'));
  const entry = (saved as Array<{ Config: string; Layers: string[] }>)[0];
  if (!entry) throw new Error('docker save wrote no manifest');

  const blobs = new Map<string, Buffer>();
  const config = await fs.readFile(path.join(work, entry.Config));
  blobs.set(sha256(config), config);
  const layers = [];
  for (const layerFile of entry.Layers) {
    const gz = gzipSync(await fs.readFile(path.join(work, layerFile)), { level: 1 });
    blobs.set(sha256(gz), gz);
    layers.push({
      mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
      size: gz.length,
      digest: sha256(gz),
    });
  }
  await fs.rm(work, { recursive: true, force: true });
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MANIFEST_TYPE,
      config: {
        mediaType: 'application/vnd.docker.container.image.v1+json',
        size: config.length,
        digest: sha256(config),
      },
      layers,
    }),
  );
  const expectedAuth = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : undefined;

  const server = http.createServer((req, res) => {
    res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    if (expectedAuth && req.headers.authorization !== expectedAuth) {
      res.writeHead(401, {
        'WWW-Authenticate': 'Basic realm="gpucloud-test"',
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }));
      return;
    }
    const send = (body: Buffer, type: string, digest: string) => {
      res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': body.length,
        'Docker-Content-Digest': digest,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const url = req.url ?? '';
    if (url === '/v2/' || url === '/v2') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
      return;
    }
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/?]+)/.exec(url);
    if (m?.[1] === repository && m[2] === 'manifests' && (m[3] === tag || m[3] === sha256(manifest))) {
      return send(manifest, MANIFEST_TYPE, sha256(manifest));
    }
    const blob = m?.[1] === repository && m[2] === 'blobs' && m[3] ? blobs.get(m[3]) : undefined;
    if (blob && m?.[3]) return send(blob, 'application/octet-stream', m[3]);
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'not here' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
