// Issue 19, the join protocol against real parts: two replicas on one database, join tokens, a
// join answered with a certificate from the platform CA, and a real agent (simulated GPUs, the
// test Docker engine) serving with that certificate and requiring the control plane's client
// certificate: the node becomes online with its GPUs over mutual TLS.
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { startAgent } from '@gpucloud/node-agent';
import { type HostInfo__Output, loadAgentProto } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AgentClient } from '../src/agents/agent-client.js';
import { SecretBox } from '../src/framework/secret-box.js';
import { JoinRepository } from '../src/modules/fleet/join-repository.js';
import { PlatformPki } from '../src/modules/fleet/pki.js';
import type { RunningControlPlane } from '../src/platform.js';
import { reserveAgentPortRange } from './agents.js';
import { ADMIN, ApiClient, createTestDatabase, startControlPlaneOn } from './harness.js';

const secretKey = randomBytes(32);
let url: string;
let a: RunningControlPlane;
let b: RunningControlPlane;
let admin: ApiClient;
const dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-join-'));
const agents: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  url = await createTestDatabase();
  // Two replicas on one database with one SECRET_KEY: one CA for both (a race for it: below).
  a = await startControlPlaneOn(url, { secretKey });
  b = await startControlPlaneOn(url, { secretKey });
  admin = new ApiClient(a.url);
  await admin.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  for (const agent of agents) await agent.close().catch(() => {});
  await a?.close();
  await b?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Detail = { detail: string; code: string };

interface Created {
  token: string;
  id: number;
  expires_at: string;
  command: string;
  script_url: string;
}

interface Joined {
  node_id: number;
  node_token: string;
  certificate_pem: string;
  ca_certificate_pem: string;
  server_name: string;
}

const P256 = { name: 'ECDSA', namedCurve: 'P-256' };

/** An agent's key and CSR, as `gpucloud-agent join` makes them (PEM). */
async function agentKeyAndCsr(
  algorithm: webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams = P256,
  signing: webcrypto.AlgorithmIdentifier | webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' },
) {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: 'CN=joining-host',
    keys: keys as never,
    signingAlgorithm: signing as never,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
  return { csrPem: csr.toString('pem'), keyPem };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function newToken(body: Record<string, unknown> = { region: '华东一区' }): Promise<Created> {
  const res = await admin.request<Created>('POST', '/api/admin/nodes/join-tokens', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function nodeCount(): Promise<number> {
  const [row] = await a.knex('nodes').count<{ count: string }[]>({ count: '*' });
  return Number(row?.count);
}

function join(body: Record<string, unknown>, replica = a) {
  return new ApiClient(replica.url).request<Joined & Detail>('POST', '/api/agent/join', body);
}

/** A gRPC call to an agent with whatever credentials the test gives. */
function hostInfoWith(
  address: string,
  credentials: grpc.ChannelCredentials,
  nodeToken: string,
  serverName: string,
): Promise<HostInfo__Output> {
  const Ctor = loadAgentProto().gpucloud.agent.v1.NodeAgent;
  const client = new Ctor(address, credentials, { 'grpc.ssl_target_name_override': serverName });
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${nodeToken}`);
  return new Promise<HostInfo__Output>((resolve, reject) => {
    client.GetHostInfo({}, md, { deadline: Date.now() + 5000 }, (err, res) => {
      client.close();
      if (err) reject(err);
      else resolve(res as HostInfo__Output);
    });
  });
}

/** The certificate a fresh TLS connection to the agent is served (with the CP's client certificate). */
function servedCertificate(port: number, serverName: string): Promise<tls.PeerCertificate> {
  const creds = a.services.fleet.pki.clientCredentials();
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port,
      servername: serverName,
      ca: creds?.ca,
      cert: creds?.cert,
      key: creds?.key,
      ALPNProtocols: ['h2'],
    });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      resolve(cert);
    });
    socket.once('error', reject);
  });
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the platform CA', () => {
  it('is made once per database: both replicas use the same one', async () => {
    const rows = await a.knex('platform_ca').select('id', 'certificate_pem', 'key_sealed');
    expect(rows).toHaveLength(1);
    expect(a.services.fleet.pki.caCertificatePem).toBe(rows[0].certificate_pem);
    expect(b.services.fleet.pki.caCertificatePem).toBe(rows[0].certificate_pem);
    // Sealed with SECRET_KEY: the key is not in the clear, and opens to a PKCS#8 key.
    expect(rows[0].key_sealed).not.toContain('PRIVATE KEY');
    expect(new SecretBox(secretKey).open(rows[0].key_sealed)).toContain('-----BEGIN PRIVATE KEY-----');
    // Each replica has its own client certificate from that CA.
    const ca = new X509Certificate(rows[0].certificate_pem);
    const certA = new X509Certificate(a.services.fleet.pki.clientCredentials()?.cert as Buffer);
    const certB = new X509Certificate(b.services.fleet.pki.clientCredentials()?.cert as Buffer);
    expect(certA.verify(ca.publicKey) && certB.verify(ca.publicKey)).toBe(true);
    expect(certA.serialNumber).not.toBe(certB.serialNumber);
  });

  it('is made once when replicas race for it (insert … on conflict do nothing, then read)', async () => {
    const raceUrl = await createTestDatabase();
    const knex = (await import('knex')).default({
      client: 'pg',
      connection: raceUrl,
      pool: { min: 0, max: 4 },
    });
    try {
      await knex.schema.createTable('platform_ca', (t) => {
        t.integer('id').primary();
        t.text('certificate_pem').notNullable();
        t.text('key_sealed').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      const repo = new JoinRepository(knex);
      const store = { read: () => repo.readCa(), insertIfAbsent: (ca: never) => repo.insertCaIfAbsent(ca) };
      const replicas = Array.from(
        { length: 4 },
        () => new PlatformPki({ store, secrets: new SecretBox(secretKey), log: () => {} }),
      );
      await Promise.all(replicas.map((p) => p.start()));
      for (const p of replicas) p.stop();
      const stored = await repo.readCa();
      expect(new Set(replicas.map((p) => p.caCertificatePem))).toEqual(new Set([stored?.certificate_pem]));
    } finally {
      await knex.destroy();
    }
  });
});

describe('join tokens', () => {
  it('are made by admins only, with the command to paste and an expiry', async () => {
    const anonymous = await new ApiClient(a.url).request('POST', '/api/admin/nodes/join-tokens', {
      region: '华东一区',
    });
    expect(anonymous.status).toBe(401);
    const before = Date.now();
    const created = await newToken({ region: '华东一区', name: 'gpu-a1', expires_minutes: 30 });
    expect(created.token).toMatch(/^gcj_[A-Za-z0-9_-]{32}$/);
    expect(created.script_url).toBe(`${a.url}/install/agent.sh`);
    expect(created.command).toBe(
      `curl -fsSL ${a.url}/install/agent.sh | sudo bash -s -- --join ${created.token}`,
    );
    const expires = Date.parse(created.expires_at);
    expect(expires - before).toBeGreaterThan(29 * 60_000);
    expect(expires - before).toBeLessThan(31 * 60_000);
    // Stored as its hash only.
    const row = await a.knex('node_join_tokens').where({ id: created.id }).first();
    expect(JSON.stringify(row)).not.toContain(created.token);
    const list = await admin.request<{
      items: { id: number; status: string; name: string; region: string }[];
    }>('GET', '/api/admin/nodes/join-tokens');
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({
      id: created.id,
      status: 'pending',
      name: 'gpu-a1',
      region: '华东一区',
    });
  });

  it('take their origin from PUBLIC_URL when set', async () => {
    const replica = await startControlPlaneOn(url, { secretKey, publicUrl: 'https://gpu.example.com' });
    try {
      const client = new ApiClient(replica.url);
      await client.login(ADMIN.username, ADMIN.password);
      const res = await client.request<Created>('POST', '/api/admin/nodes/join-tokens', { region: '华北' });
      expect(res.body.command).toBe(
        `curl -fsSL https://gpu.example.com/install/agent.sh | sudo bash -s -- --join ${res.body.token}`,
      );
    } finally {
      await replica.close();
    }
  });

  it('refuse bad input with a Chinese detail', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, '请输入地区'],
      [{ region: '  ' }, '请输入地区'],
      [{ region: 'x'.repeat(51) }, '地区不能超过50个字符'],
      [{ region: '华东', expires_minutes: 5 }, '有效期为 10-1440 分钟'],
      [{ region: '华东', expires_minutes: 1441 }, '有效期为 10-1440 分钟'],
      [{ region: '华东', name: 'bad name!' }, '节点名称只能包含字母、数字、下划线、点和横线'],
    ];
    for (const [body, detail] of cases) {
      const res = await admin.request<Detail>('POST', '/api/admin/nodes/join-tokens', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
  });

  it('are revoked while unused (404 unknown, 409 used)', async () => {
    const created = await newToken();
    expect((await admin.request('DELETE', `/api/admin/nodes/join-tokens/${created.id}`)).status).toBe(200);
    const again = await admin.request<Detail>('DELETE', `/api/admin/nodes/join-tokens/${created.id}`);
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe('加入令牌不存在');
    // A revoked token joins nothing.
    const { csrPem } = await agentKeyAndCsr();
    const res = await join({ token: created.token, csr_pem: csrPem, node_name: 'h', grpc_port: 50051 });
    expect(res.status).toBe(401);
  });
});

describe('a join', () => {
  let joined: Joined;
  let created: Created;
  let port: number;
  let files: { certFile: string; keyFile: string; caFile: string };
  let nodesBefore: number;

  it('with a token creates a platform node and answers its certificate from the platform CA', async () => {
    created = await newToken({ region: '华南一区', expires_minutes: 60 });
    port = await freePort();
    const { csrPem, keyPem } = await agentKeyAndCsr();
    nodesBefore = await nodeCount();
    // Joined through the second replica: it is the one that dials the node at once.
    const res = await join(
      {
        token: created.token,
        csr_pem: csrPem,
        node_name: 'gpu host/01',
        public_host: '127.0.0.1',
        grpc_port: port,
      },
      b,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    joined = res.body;
    expect(joined.node_token).toMatch(/^[0-9a-f]{48}$/);
    expect(joined.server_name).toBe(`node-${joined.node_id}.gpucloud.internal`);
    expect(joined.ca_certificate_pem).toBe(a.services.fleet.pki.caCertificatePem);
    const cert = new X509Certificate(joined.certificate_pem);
    expect(cert.subject).toBe(`CN=node-${joined.node_id}`);
    expect(cert.subjectAltName).toBe(`DNS:node-${joined.node_id}.gpucloud.internal`);
    expect(cert.verify(new X509Certificate(joined.ca_certificate_pem).publicKey)).toBe(true);

    expect(await nodeCount()).toBe(nodesBefore + 1);
    const node = await a.knex('nodes').where({ id: joined.node_id }).first();
    expect(node).toMatchObject({
      tls: 'platform',
      region: '华南一区',
      // The host's name made a node name; the address is the client's with the agent's port.
      name: 'gpu-host-01',
      address: `127.0.0.1:${port}`,
      public_host: '127.0.0.1',
      token: joined.node_token,
      status: 'offline',
    });
    const list = await admin.request<{ items: { id: number; status: string; node_id: number }[] }>(
      'GET',
      '/api/admin/nodes/join-tokens',
    );
    expect(list.body.items.find((t) => t.id === created.id)).toMatchObject({
      status: 'used',
      node_id: joined.node_id,
    });

    files = {
      certFile: path.join(dir, 'tls', 'agent.crt'),
      keyFile: path.join(dir, 'tls', 'agent.key'),
      caFile: path.join(dir, 'tls', 'ca.crt'),
    };
    mkdirSync(path.join(dir, 'tls'), { recursive: true });
    writeFileSync(files.keyFile, keyPem, { mode: 0o600 });
    writeFileSync(files.certFile, joined.certificate_pem);
    writeFileSync(files.caFile, joined.ca_certificate_pem);
  });

  it('then the node is online with its GPUs, reached over mutual TLS, a few seconds after its agent starts', async () => {
    const stateDir = mkdtempSync(path.join(dir, 'state-'));
    const portStart = reserveAgentPortRange();
    const volumeRoot = mkdtempSync(path.join(dir, 'volumes-'));
    const agent = await startAgent({
      token: joined.node_token,
      listen: `127.0.0.1:${port}`,
      simulateGpus: '2xRTX4090',
      dockerHost: inject('dockerHost'),
      toolboxDir: inject('toolboxDir'),
      bindAddress: '127.0.0.1',
      publicHost: '127.0.0.1',
      portRange: `${portStart}-${portStart + 199}`,
      volumeRoot,
      stateDir,
      nodeName: `join-${joined.node_id}`,
      tenantNetworkIdle: 0,
      heartbeatIntervalMs: 500,
      tls: { ...files, watch: true },
    });
    agents.push(agent);
    const started = Date.now();
    const view = await until(
      'the joined node online with its GPUs',
      async () => {
        const res = await admin.request<{ status: string; gpu_total: number; gpus?: unknown }>(
          'GET',
          `/api/admin/nodes/${joined.node_id}`,
        );
        return res.body.status === 'online' && res.body.gpu_total === 2 ? res.body : undefined;
      },
      // The joining replica tries the node every second (no timing is asserted: a loaded machine).
      60_000,
    );
    console.log(`joined node online with its GPUs ${Date.now() - started} ms after its agent started`);
    expect(view).toMatchObject({ status: 'online', gpu_total: 2 });
    const gpus = await a.knex('node_gpus').where({ node_id: joined.node_id });
    expect(gpus.map((g) => g.model)).toEqual(['NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 4090']);
    // The other replica reaches it with its own client certificate.
    const node = await a.services.nodes.require(joined.node_id);
    const info = await a.services.agents.get(node).getHostInfo(5000);
    expect(info.gpus).toHaveLength(2);
    // And the node monitor follows it (heartbeats keep coming).
    const first = (await a.knex('nodes').where({ id: joined.node_id }).first()).last_heartbeat_at as Date;
    await until('a heartbeat', async () => {
      const row = await a.knex('nodes').where({ id: joined.node_id }).first();
      return (row.last_heartbeat_at as Date).getTime() > first.getTime() ? true : undefined;
    });
  });

  it('the agent refuses a client without the platform client certificate', async () => {
    const address = `127.0.0.1:${port}`;
    const ca = Buffer.from(joined.ca_certificate_pem);
    const creds = a.services.fleet.pki.clientCredentials();
    if (!creds) throw new Error('no client credentials');
    // With the control plane's client certificate: answered (the check below is not vacuous).
    const ok = await hostInfoWith(
      address,
      grpc.credentials.createSsl(ca, creds.key, creds.cert),
      joined.node_token,
      joined.server_name,
    );
    expect(ok.gpus).toHaveLength(2);
    // The right CA and node token, but no client certificate: the handshake is refused.
    await expect(
      hostInfoWith(address, grpc.credentials.createSsl(ca), joined.node_token, joined.server_name),
    ).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    // A client certificate from another CA: refused too.
    let foreignCa: { certificate_pem: string; key_sealed: string } | undefined;
    const other = new PlatformPki({
      store: {
        read: async () => foreignCa,
        insertIfAbsent: async (ca) => {
          foreignCa ??= ca;
        },
      },
      secrets: new SecretBox(randomBytes(32)),
      log: () => {},
    });
    await other.start();
    other.stop();
    const foreign = other.clientCredentials();
    if (!foreign) throw new Error('no foreign credentials');
    await expect(
      hostInfoWith(
        address,
        grpc.credentials.createSsl(ca, foreign.key, foreign.cert),
        joined.node_token,
        joined.server_name,
      ),
    ).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    // Plaintext: refused.
    await expect(
      hostInfoWith(address, grpc.credentials.createInsecure(), joined.node_token, joined.server_name),
    ).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    // The control plane checks the agent's name: a node dialled as another node id is refused.
    const wrongName = new AgentClient(
      { address, token: joined.node_token, tls: 'platform', id: joined.node_id + 1000 },
      { callTimeoutMs: 5000, platformTls: () => a.services.fleet.pki.clientCredentials() },
    );
    try {
      await expect(wrongName.getHostInfo(5000)).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
    } finally {
      wrongName.close();
    }
  });

  it('a used, an expired or an unknown token is refused (401) and creates nothing', async () => {
    const { csrPem } = await agentKeyAndCsr();
    const count = await nodeCount();
    const expired = await newToken();
    await a
      .knex('node_join_tokens')
      .where({ id: expired.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    for (const token of [
      created.token,
      expired.token,
      `gcj_${randomBytes(24).toString('base64url')}`,
      'nonsense',
    ]) {
      const res = await join({ token, csr_pem: csrPem, node_name: 'again', grpc_port: port });
      expect(res.status, token).toBe(401);
      expect(res.body.detail).toBe('加入令牌无效或已过期');
    }
    expect(await nodeCount()).toBe(count);
    const list = await admin.request<{ items: { id: number; status: string; used_at: string | null }[] }>(
      'GET',
      '/api/admin/nodes/join-tokens',
    );
    expect(list.body.items.find((t) => t.id === expired.id)).toMatchObject({
      status: 'expired',
      used_at: null,
    });
  });

  it('a CSR with a bad signature or an RSA key is refused (400); the token stays unused', async () => {
    const token = await newToken();
    const count = await nodeCount();
    const good = (await agentKeyAndCsr()).csrPem;
    const der = Buffer.from(good.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[der.length - 3] = (der[der.length - 3] as number) ^ 0x01;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    const rsa = (
      await agentKeyAndCsr(
        {
          name: 'RSASSA-PKCS1-v1_5',
          hash: 'SHA-256',
          publicExponent: new Uint8Array([1, 0, 1]),
          modulusLength: 2048,
        },
        { name: 'RSASSA-PKCS1-v1_5' },
      )
    ).csrPem;
    const cases: [string, string][] = [
      [tampered, '证书签名请求（CSR）的签名无效'],
      [rsa, '证书签名请求的密钥必须是 ECDSA P-256'],
      ['garbage', '证书签名请求（CSR）格式无效'],
    ];
    for (const [csr, detail] of cases) {
      const res = await join({ token: token.token, csr_pem: csr, node_name: 'h', grpc_port: 50051 });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    // Bad fields: Chinese details too.
    const bad = await join({ token: token.token, csr_pem: good, node_name: 'h', grpc_port: 70000 });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('gRPC 端口为 1-65535');
    expect(await nodeCount()).toBe(count);
    const row = await a.knex('node_join_tokens').where({ id: token.id }).first();
    expect(row.used_at).toBeNull();
    // The same token then joins (with the token's name; a taken name gets a suffix).
    const named = await newToken({ region: '华南一区', name: 'gpu-host-01' });
    const ok = await join({
      token: named.token,
      csr_pem: good,
      node_name: 'ignored',
      grpc_port: 50051,
      address: '10.0.0.9:50051',
    });
    expect(ok.status).toBe(201);
    const node = await a.knex('nodes').where({ id: ok.body.node_id }).first();
    expect(node).toMatchObject({ name: 'gpu-host-01-2', address: '10.0.0.9:50051', tls: 'platform' });
    await admin.request('DELETE', `/api/admin/nodes/${ok.body.node_id}`);
  });

  it('one token joins once, however many joins race for it', async () => {
    const token = await newToken();
    const count = await nodeCount();
    const { csrPem } = await agentKeyAndCsr();
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        join(
          { token: token.token, csr_pem: csrPem, node_name: `race-${i}`, grpc_port: 50051 },
          i % 2 ? a : b,
        ),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 401, 401, 401]);
    expect(await nodeCount()).toBe(count + 1);
    const winner = answers.find((r) => r.status === 201)?.body.node_id;
    await admin.request('DELETE', `/api/admin/nodes/${winner}`);
  });

  it('the control plane renews the agent’s certificate over mutual TLS; new connections get the new one without a restart', async () => {
    const node = await a.services.nodes.require(joined.node_id);
    const before = await servedCertificate(port, joined.server_name);
    // Not due yet (90 days left): the job leaves it.
    expect(a.services.fleet.renewal.due([node]).map((n) => n.id)).toEqual([]);
    // Due when it has less than 30 days left.
    const expires = Date.parse(before.valid_to);
    expect(a.services.fleet.renewal.due([node], expires - 29 * 24 * 3600_000).map((n) => n.id)).toEqual([
      node.id,
    ]);
    const result = await a.services.fleet.renewal.renewDue(expires - 29 * 24 * 3600_000);
    expect(result).toEqual({ renewed: [node.id], failed: [] });
    const after = await until('the renewed certificate served', async () => {
      const served = await servedCertificate(port, joined.server_name);
      return served.serialNumber !== before.serialNumber ? served : undefined;
    });
    expect(after.subject.CN).toBe(`node-${joined.node_id}`);
    expect(Date.parse(after.valid_to)).toBeGreaterThanOrEqual(Date.parse(before.valid_to));
    // Still reached by the control plane, and the stored expiry follows.
    const info = await a.services.agents.get(node).getHostInfo(5000);
    expect(Number(info.certificateExpiresUnixMs)).toBe(Date.parse(after.valid_to));
    const stored = await a.services.nodes.require(joined.node_id);
    expect(Number(stored.host_info?.certificateExpiresUnixMs)).toBe(Date.parse(after.valid_to));
  });

  it('after a new client certificate of the replica, platform nodes are dialled with it', async () => {
    const node = await a.services.nodes.require(joined.node_id);
    const oldClient = a.services.agents.get(node);
    const oldCert = a.services.fleet.pki.clientCredentials()?.cert;
    await a.services.fleet.pki.renewClient();
    const newClient = a.services.agents.get(node);
    expect(newClient).not.toBe(oldClient);
    expect(a.services.fleet.pki.clientCredentials()?.cert.equals(oldCert as Buffer)).toBe(false);
    expect((await newClient.getHostInfo(5000)).gpus).toHaveLength(2);
    // The node stays followed.
    await until('online after the renewal', async () => {
      const res = await admin.request<{ status: string }>('GET', `/api/admin/nodes/${joined.node_id}`);
      return res.body.status === 'online' ? true : undefined;
    });
  });

  it('failed joins from one address are rate-limited like sign-ins (429), a good token included', async () => {
    const { csrPem } = await agentKeyAndCsr();
    const good = await newToken();
    let refusal: { status: number; body: Detail } | undefined;
    for (let i = 0; i < 25 && !refusal; i++) {
      const res = await join({
        token: `gcj_${'x'.repeat(32)}`,
        csr_pem: csrPem,
        node_name: 'h',
        grpc_port: 50051,
      });
      if (res.status === 429) refusal = res;
      else expect(res.status).toBe(401);
    }
    expect(refusal?.body.detail).toMatch(/^加入节点失败次数过多，请\d+分钟后再试$/);
    const blocked = await join({ token: good.token, csr_pem: csrPem, node_name: 'h', grpc_port: 50051 });
    expect(blocked.status).toBe(429);
    const row = await a.knex('node_join_tokens').where({ id: good.id }).first();
    expect(row.used_at).toBeNull();
  });
});
