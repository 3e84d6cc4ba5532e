// `gpucloud-agent join` against a stand-in for the control plane's POST /api/agent/join (it
// checks the request and signs the CSR as the design says), then the agent started with the
// files join wrote: mutual TLS from the platform CA, and a certificate renewed over that channel
// reaching new connections without a restart.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import {
  AGENT_PROTOCOL_VERSION,
  type HostInfo__Output,
  type InstallCertificateResponse__Output,
  loadAgentProto,
  type NodeAgentClient,
  type RenewCertificateResponse__Output,
} from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentConfig, configFromCli } from '../src/config.js';
import { newKeyAndRequest } from '../src/fleet/certificates.js';
import { bearer, grpcError, startTestAgent, type TestAgent, unaryCall } from './helpers.js';
import { makeTestCa, type StandInControlPlane, startStandInControlPlane } from './platform-pki.js';

const agentDir = fileURLToPath(new URL('..', import.meta.url));

function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: agentDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function mtlsClient(address: string, caPem: string, identity?: { keyPem: string; certPem: string }) {
  const { NodeAgent } = loadAgentProto().gpucloud.agent.v1;
  const credentials = identity
    ? grpc.credentials.createSsl(
        Buffer.from(caPem),
        Buffer.from(identity.keyPem),
        Buffer.from(identity.certPem),
      )
    : grpc.credentials.createSsl(Buffer.from(caPem));
  return new NodeAgent(address, credentials, {
    'grpc.ssl_target_name_override': 'node-7.gpucloud.internal',
    'grpc.default_authority': 'node-7.gpucloud.internal',
  }) as NodeAgentClient;
}

/** The serial number of the certificate a NEW TLS connection to the agent is served (upper-case hex). */
function servedSerial(
  port: number,
  caPem: string,
  identity: { keyPem: string; certPem: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: '127.0.0.1',
      port,
      ca: caPem,
      key: identity.keyPem,
      cert: identity.certPem,
      servername: 'node-7.gpucloud.internal',
      ALPNProtocols: ['h2'],
    });
    socket.once('secureConnect', () => {
      const serial = socket.getPeerCertificate().serialNumber.toUpperCase();
      socket.destroy();
      resolve(serial);
    });
    socket.once('error', reject);
  });
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('gpucloud-agent join', () => {
  let cp: StandInControlPlane;
  let work: string;

  beforeAll(async () => {
    cp = await startStandInControlPlane();
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-join-'));
  });
  afterAll(async () => {
    await cp?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('refuses a used or unknown token, and a malformed one, writing nothing', async () => {
    const dir = path.join(work, 'refused');
    const unknown = await runCli([
      'join',
      '--control-plane',
      cp.url,
      '--token',
      `gcj_${'A'.repeat(32)}`,
      '--config-dir',
      dir,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('加入令牌无效或已过期');
    expect(existsSync(dir)).toBe(false);
    const malformed = await runCli([
      'join',
      '--control-plane',
      cp.url,
      '--token',
      'nope',
      '--config-dir',
      dir,
    ]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/join token/);
    const noCp = await runCli(['join', '--token', cp.token(), '--config-dir', dir]);
    expect(noCp.code).toBe(2);
    expect(noCp.stderr).toMatch(/--control-plane/);
    expect(existsSync(dir)).toBe(false);
  });

  describe('a joined node', () => {
    let dir: string;
    let config: AgentConfig;
    let agent: TestAgent;
    let cpIdentity: { keyPem: string; certPem: string };
    let client: NodeAgentClient;
    let md: grpc.Metadata;

    beforeAll(async () => {
      dir = path.join(work, 'etc-gpucloud');
      await fs.mkdir(dir, { mode: 0o755 });
      // What the install script wrote before (one key spelt camelCase): kept, one value replaced.
      await fs.writeFile(
        path.join(dir, 'agent.json'),
        JSON.stringify({
          'port-range': '31000-31999',
          publicHost: 'gpu-a.example.com',
          'simulate-gpus': '2xA100',
        }),
      );
      await fs.writeFile(path.join(dir, 'agent.env'), 'AGENT_TOKEN=old\nHTTPS_PROXY=http://proxy:3128\n', {
        mode: 0o600,
      });
      const token = cp.token();
      const joined = await runCli([
        'join',
        '--control-plane',
        cp.url,
        '--token',
        token,
        '--listen',
        '127.0.0.1:34501',
        '--node-name',
        'gpu-a',
        '--config-dir',
        dir,
      ]);
      expect(joined.stderr).toMatch(/plain http/);
      expect(joined.code, joined.stderr).toBe(0);
      expect(joined.stdout).toContain('node_id=7');
      expect(joined.stdout).toContain('node-7.gpucloud.internal');
      expect(cp.joins.at(-1)).toEqual({
        token,
        node_name: 'gpu-a',
        public_host: 'gpu-a.example.com',
        grpc_port: 34501,
        csrCommonName: 'gpu-a',
      });
      // The same token a second time: refused (the stand-in, like the control plane, uses it once).
      const again = await runCli(['join', '--control-plane', cp.url, '--token', token, '--config-dir', dir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('加入令牌无效或已过期');

      const env = readFileSync(path.join(dir, 'agent.env'), 'utf8');
      const nodeToken = /^AGENT_TOKEN=([0-9a-f]{48})$/m.exec(env)?.[1] ?? '';
      expect(nodeToken).not.toBe('');
      const parsed = configFromCli({
        argv: ['--config', path.join(dir, 'agent.json')],
        env: { AGENT_TOKEN: nodeToken },
      });
      if (parsed === 'help') throw new Error('unexpected help');
      config = parsed;
      cpIdentity = await cp.ca.client();
      agent = await startTestAgent(
        { token: config.token, ...(config.tls ? { tls: config.tls } : {}) },
        { tlsRefreshMs: 200 },
      );
      client = mtlsClient(agent.agent.address, cp.ca.pem, cpIdentity);
      md = bearer(config.token);
    });
    afterAll(async () => {
      client?.close();
      await agent?.close();
    });

    it('wrote the key, the certificate, the CA, the node token and the settings', () => {
      const tlsDir = path.join(dir, 'tls');
      expect(mode(path.join(tlsDir, 'agent.key'))).toBe(0o600);
      expect(mode(path.join(dir, 'agent.env'))).toBe(0o600);
      expect(mode(path.join(dir, 'agent.json'))).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
      expect(readFileSync(path.join(tlsDir, 'agent.key'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      expect(readFileSync(path.join(tlsDir, 'ca.crt'), 'utf8')).toBe(cp.ca.pem);
      const cert = new x509.X509Certificate(readFileSync(path.join(tlsDir, 'agent.crt'), 'utf8'));
      expect(cert.subject).toBe('CN=node-7');
      // Other lines of agent.env are kept; the token is replaced.
      const env = readFileSync(path.join(dir, 'agent.env'), 'utf8');
      expect(env).toContain('HTTPS_PROXY=http://proxy:3128\n');
      expect(env).not.toContain('AGENT_TOKEN=old');
      expect(JSON.parse(readFileSync(path.join(dir, 'agent.json'), 'utf8'))).toEqual({
        'port-range': '31000-31999',
        'simulate-gpus': '2xA100',
        listen: '127.0.0.1:34501',
        'public-host': 'gpu-a.example.com',
        'node-name': 'gpu-a',
        'tls-cert': path.join(tlsDir, 'agent.crt'),
        'tls-key': path.join(tlsDir, 'agent.key'),
        'tls-ca': path.join(tlsDir, 'ca.crt'),
        'tls-mode': 'platform',
        'control-plane-url': cp.url,
      });
      expect(config.tls).toEqual({
        certFile: path.join(tlsDir, 'agent.crt'),
        keyFile: path.join(tlsDir, 'agent.key'),
        caFile: path.join(tlsDir, 'ca.crt'),
        watch: true,
      });
      expect(config.controlPlaneUrl).toBe(cp.url);
    });

    it('serves mutual TLS: a client certificate from the platform CA is let in, none or a stranger is not', async () => {
      const info: HostInfo__Output = await unaryCall((cb) => client.getHostInfo({}, md, cb));
      expect(info.protocolVersion).toBe(AGENT_PROTOCOL_VERSION);
      expect(info.agentBuild).toBe('source');
      const cert = new x509.X509Certificate(readFileSync(path.join(dir, 'tls/agent.crt'), 'utf8'));
      expect(Number(info.certificateExpiresUnixMs)).toBe(cert.notAfter.getTime());
      expect(Number(info.volumeDiskTotalBytes)).toBeGreaterThan(0);
      expect(Number(info.volumeDiskFreeBytes)).toBe(Number(info.diskFreeBytes));
      // The test engine runs on this host: its data root is measured.
      expect(Number(info.imageDiskTotalBytes)).toBeGreaterThan(0);
      expect(Number(info.imageDiskFreeBytes)).toBeGreaterThan(0);

      const anonymous = mtlsClient(agent.agent.address, cp.ca.pem);
      const stranger = mtlsClient(
        agent.agent.address,
        cp.ca.pem,
        await (await makeTestCa('stranger CA')).client(),
      );
      try {
        for (const c of [anonymous, stranger]) {
          const err = await grpcError(
            unaryCall((cb) => c.getHostInfo({}, md, { deadline: Date.now() + 5000 }, cb)),
          );
          expect(err.code).toBe(grpc.status.UNAVAILABLE);
        }
      } finally {
        anonymous.close();
        stranger.close();
      }
      // Plain text is refused too.
      const plain = new (loadAgentProto().gpucloud.agent.v1.NodeAgent)(
        agent.agent.address,
        grpc.credentials.createInsecure(),
      );
      const err = await grpcError(
        unaryCall((cb) => plain.getHostInfo({}, md, { deadline: Date.now() + 5000 }, cb)),
      );
      expect(err.code).toBe(grpc.status.UNAVAILABLE);
      plain.close();
    });

    it('renews its certificate without a restart: new connections get the new one', async () => {
      const port = agent.agent.port;
      const before = await servedSerial(port, cp.ca.pem, cpIdentity);
      const oldCert = new x509.X509Certificate(readFileSync(path.join(dir, 'tls/agent.crt'), 'utf8'));
      expect(before).toBe(oldCert.serialNumber.toUpperCase());

      const renew: RenewCertificateResponse__Output = await unaryCall((cb) =>
        client.renewCertificate({}, md, cb),
      );
      const csr = new x509.Pkcs10CertificateRequest(renew.csrPem);
      expect(await csr.verify()).toBe(true);
      expect(csr.subject).toBe('CN=node-7');
      expect(mode(path.join(dir, 'tls/agent.key.next'))).toBe(0o600);

      // A certificate for another key, and one from another CA: refused, nothing replaced.
      const otherKey = await newKeyAndRequest('node-7');
      const wrongKey = await cp.ca.signAgent(otherKey.csrPem, 7);
      const wrongKeyErr = await grpcError(
        unaryCall((cb) =>
          client.installCertificate(
            { certificatePem: wrongKey.toString('pem'), caCertificatePem: cp.ca.pem },
            md,
            cb,
          ),
        ),
      );
      expect(wrongKeyErr.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(wrongKeyErr.details).toContain('公钥');
      const stranger = await makeTestCa('stranger CA');
      const fromStranger = await stranger.signAgent(renew.csrPem, 7);
      const strangerErr = await grpcError(
        unaryCall((cb) =>
          client.installCertificate(
            { certificatePem: fromStranger.toString('pem'), caCertificatePem: '' },
            md,
            cb,
          ),
        ),
      );
      expect(strangerErr.code).toBe(grpc.status.INVALID_ARGUMENT);
      const otherCa = await grpcError(
        unaryCall((cb) =>
          client.installCertificate(
            { certificatePem: fromStranger.toString('pem'), caCertificatePem: stranger.pem },
            md,
            cb,
          ),
        ),
      );
      expect(otherCa.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(readFileSync(path.join(dir, 'tls/agent.crt'), 'utf8')).toBe(oldCert.toString('pem'));

      const renewed = await cp.ca.signAgent(renew.csrPem, 7, 60);
      const installed: InstallCertificateResponse__Output = await unaryCall((cb) =>
        client.installCertificate(
          { certificatePem: renewed.toString('pem'), caCertificatePem: cp.ca.pem },
          md,
          cb,
        ),
      );
      expect(Number(installed.expiresUnixMs)).toBe(renewed.notAfter.getTime());
      expect(existsSync(path.join(dir, 'tls/agent.key.next'))).toBe(false);
      expect(mode(path.join(dir, 'tls/agent.key'))).toBe(0o600);

      // The same server (same port, same process) serves the new certificate to a new connection.
      const want = renewed.serialNumber.toUpperCase();
      expect(want).not.toBe(before);
      let served = before;
      for (let i = 0; i < 100 && served !== want; i++) {
        await new Promise((r) => setTimeout(r, 100));
        served = await servedSerial(port, cp.ca.pem, cpIdentity);
      }
      expect(served).toBe(want);
      expect(agent.agent.port).toBe(port);
      // The channel opened before the renewal still works; a new one does too, and HostInfo
      // reports the new expiry.
      await unaryCall((cb) => client.getHostInfo({}, md, cb));
      const fresh = mtlsClient(agent.agent.address, cp.ca.pem, cpIdentity);
      try {
        const info: HostInfo__Output = await unaryCall((cb) => fresh.getHostInfo({}, md, cb));
        expect(Number(info.certificateExpiresUnixMs)).toBe(renewed.notAfter.getTime());
      } finally {
        fresh.close();
      }
      // A second install without a new RenewCertificate: no pending key.
      const noPending = await grpcError(
        unaryCall((cb) =>
          client.installCertificate(
            { certificatePem: renewed.toString('pem'), caCertificatePem: cp.ca.pem },
            md,
            cb,
          ),
        ),
      );
      expect(noPending.code).toBe(grpc.status.FAILED_PRECONDITION);
    });

    it('needs the node token for renewal, like every call', async () => {
      const err = await grpcError(unaryCall((cb) => client.renewCertificate({}, bearer('wrong'), cb)));
      expect(err.code).toBe(grpc.status.UNAUTHENTICATED);
    });
  });

  it('an agent with hand-made certificates (or none) refuses renewal', async () => {
    const plain = await startTestAgent();
    try {
      const err = await grpcError(unaryCall((cb) => plain.client.renewCertificate({}, plain.md, cb)));
      expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    } finally {
      await plain.close();
    }
  });
});
