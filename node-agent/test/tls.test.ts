import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type HostInfo__Output, loadAgentProto, type NodeAgentClient } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, grpcError, startTestAgent, type TestAgent, unaryCall } from './helpers.js';

const OPENSSL = '/usr/bin/openssl';

interface Pki {
  dir: string;
  file(name: string): string;
  read(name: string): Buffer;
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, plus a stranger CA with its own client. */
async function makePki(): Promise<Pki> {
  if (!existsSync(OPENSSL)) throw new Error(`The TLS tests need ${OPENSSL}: apt-get install openssl`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  for (const ca of ['ca', 'stranger-ca']) {
    openssl(
      'req',
      '-x509',
      ...key,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${ca}`,
    );
  }
  const issue = (name: string, ca: string) => {
    openssl('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.crt`,
      '-extfile',
      `${name}.ext`,
    );
  };
  await fs.writeFile(
    file('agent.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  await fs.writeFile(file('control-plane.ext'), 'extendedKeyUsage=clientAuth\n');
  await fs.writeFile(file('stranger.ext'), 'extendedKeyUsage=clientAuth\n');
  issue('agent', 'ca');
  issue('control-plane', 'ca');
  issue('stranger', 'stranger-ca');
  return { dir, file, read: (name) => readFileSync(file(name)) };
}

function client(address: string, credentials: grpc.ChannelCredentials): NodeAgentClient {
  const { NodeAgent } = loadAgentProto().gpucloud.agent.v1;
  // The certificate names localhost too; checking that name keeps Node from sending an IP as SNI.
  return new NodeAgent(address, credentials, {
    'grpc.ssl_target_name_override': 'localhost',
    'grpc.default_authority': 'localhost',
  });
}

function hostInfo(c: NodeAgentClient, t: TestAgent, md = t.md): Promise<HostInfo__Output> {
  const deadline = new Date(Date.now() + 5000);
  return unaryCall((cb) => c.getHostInfo({}, md, { deadline }, cb));
}

describe('the gRPC channel with TLS', () => {
  let pki: Pki;
  let tls: TestAgent;
  let mutual: TestAgent;
  const clients: NodeAgentClient[] = [];
  const dial = (t: TestAgent, credentials: grpc.ChannelCredentials) => {
    const c = client(t.agent.address, credentials);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    pki = await makePki();
    tls = await startTestAgent({ tls: { certFile: pki.file('agent.crt'), keyFile: pki.file('agent.key') } });
    mutual = await startTestAgent({
      tls: { certFile: pki.file('agent.crt'), keyFile: pki.file('agent.key'), caFile: pki.file('ca.crt') },
    });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await tls?.close();
    await mutual?.close();
    if (pki) await fs.rm(pki.dir, { recursive: true, force: true });
  });

  it('serves a client that trusts the CA, and still wants the token', async () => {
    const trusted = dial(tls, grpc.credentials.createSsl(pki.read('ca.crt')));
    expect((await hostInfo(trusted, tls)).agentVersion).not.toBe('');
    const err = await grpcError(hostInfo(trusted, tls, bearer('wrong-token')));
    expect(err.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('refuses a plaintext client and one that does not trust the certificate', async () => {
    const plain = await grpcError(hostInfo(dial(tls, grpc.credentials.createInsecure()), tls));
    expect(plain.code).toBe(grpc.status.UNAVAILABLE);
    const stranger = await grpcError(
      hostInfo(dial(tls, grpc.credentials.createSsl(pki.read('stranger-ca.crt'))), tls),
    );
    expect(stranger.code).toBe(grpc.status.UNAVAILABLE);
  });

  it('with a CA configured, serves only clients with a certificate from that CA (mutual TLS)', async () => {
    const withCert = dial(
      mutual,
      grpc.credentials.createSsl(
        pki.read('ca.crt'),
        pki.read('control-plane.key'),
        pki.read('control-plane.crt'),
      ),
    );
    expect((await hostInfo(withCert, mutual)).dockerAvailable).toBe(true);

    const noCert = await grpcError(
      hostInfo(dial(mutual, grpc.credentials.createSsl(pki.read('ca.crt'))), mutual),
    );
    expect(noCert.code).toBe(grpc.status.UNAVAILABLE);
    const strangerCert = await grpcError(
      hostInfo(
        dial(
          mutual,
          grpc.credentials.createSsl(pki.read('ca.crt'), pki.read('stranger.key'), pki.read('stranger.crt')),
        ),
        mutual,
      ),
    );
    expect(strangerCert.code).toBe(grpc.status.UNAVAILABLE);
  });
});
