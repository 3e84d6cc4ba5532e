import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAgent } from '@gpucloud/node-agent';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AgentClient } from '../src/agents/agent-client.js';

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
function makePki(dir: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=gpucloud test CA',
  );
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'agent.key',
    '-out',
    'agent.csr',
    '-subj',
    '/CN=agent',
  );
  run(
    'x509',
    '-req',
    '-in',
    'agent.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'agent.crt',
    '-days',
    '2',
    '-extfile',
    'server.ext',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/CN=control-plane',
  );
  run(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.crt',
    '-days',
    '2',
  );
  const read = (f: string) => readFileSync(path.join(dir, f));
  return { ca: read('ca.crt'), cert: read('client.crt'), key: read('client.key'), dir };
}

let pki: ReturnType<typeof makePki>;
const token = randomBytes(16).toString('hex');
/** Everything the test writes: certificates, the agent's volumes and state. */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-tls-'));
function mkdirIn(parent: string, name: string): string {
  const dir = path.join(parent, name);
  mkdirSync(dir);
  return dir;
}
let agent: Awaited<ReturnType<typeof startAgent>>;

beforeAll(async () => {
  pki = makePki(mkdirIn(scratch, 'pki'));
  agent = await startAgent({
    token,
    listen: '127.0.0.1:0',
    simulateGpus: '2xA100',
    dockerHost: inject('dockerHost'),
    toolboxDir: inject('toolboxDir'),
    volumeRoot: mkdirIn(scratch, 'volumes'),
    stateDir: mkdirIn(scratch, 'state'),
    nodeName: `test-tls-${token.slice(0, 6)}`,
    tenantNetworkIdle: 0,
    tls: {
      certFile: path.join(pki.dir, 'agent.crt'),
      keyFile: path.join(pki.dir, 'agent.key'),
      caFile: path.join(pki.dir, 'ca.crt'),
    },
  });
});
afterAll(async () => {
  await agent?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('TLS between the control plane and an agent', () => {
  it('talks to an agent requiring mutual TLS with the CA and a client certificate', async () => {
    const client = new AgentClient(
      { address: `127.0.0.1:${agent.port}`, token },
      { callTimeoutMs: 5000, tls: pki },
    );
    try {
      const info = await client.getHostInfo();
      expect(info.gpus).toHaveLength(2);
    } finally {
      client.close();
    }
  });

  it('fails without a client certificate, and in plaintext', async () => {
    const noCert = new AgentClient(
      { address: `127.0.0.1:${agent.port}`, token },
      { callTimeoutMs: 3000, tls: { ca: pki.ca } },
    );
    const plain = new AgentClient({ address: `127.0.0.1:${agent.port}`, token }, { callTimeoutMs: 3000 });
    try {
      await expect(noCert.getHostInfo()).rejects.toMatchObject({ unreachable: true });
      await expect(plain.getHostInfo()).rejects.toMatchObject({ unreachable: true });
    } finally {
      noCert.close();
      plain.close();
    }
  });

  it('refuses a wrong token even over TLS', async () => {
    const client = new AgentClient(
      { address: `127.0.0.1:${agent.port}`, token: 'wrong-token-xxxxxxxx' },
      { callTimeoutMs: 5000, tls: pki },
    );
    try {
      await expect(client.getHostInfo()).rejects.toMatchObject({ code: 16 });
    } finally {
      client.close();
    }
  });
});
