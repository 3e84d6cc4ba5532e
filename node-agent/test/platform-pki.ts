// Test fixtures for the platform PKI (issue 19): a CA like the control plane's (ECDSA P-256),
// the certificates it signs (an agent's from its CSR, the control plane's client one), and a
// stand-in for the control plane's POST /api/agent/join that checks a join request the way the
// design says and answers as the control plane does. The real endpoint is the control plane's;
// this one lets the agent's side be tested on its own.
import { randomBytes, type webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

async function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function pkcs8Pem(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

const serial = () => `01${randomBytes(15).toString('hex')}`;

export interface TestCa {
  cert: x509.X509Certificate;
  pem: string;
  /** Signs an agent certificate (CN node-<id>, SAN node-<id>.gpucloud.internal, serverAuth) for a CSR. */
  signAgent(csrPem: string, nodeId: number, days?: number): Promise<x509.X509Certificate>;
  /** A client key + certificate (CN gpucloud-control-plane, clientAuth), PEM. */
  client(): Promise<{ keyPem: string; certPem: string }>;
}

export async function makeTestCa(name = 'gpucloud platform CA'): Promise<TestCa> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3650 * DAY),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const issue = async (
    subject: string,
    publicKey: x509.PublicKey | webcrypto.CryptoKey,
    days: number,
    extensions: x509.Extension[],
  ) =>
    x509.X509CertificateGenerator.create({
      serialNumber: serial(),
      subject,
      issuer: cert.subject,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + days * DAY),
      signingKey: keys.privateKey,
      publicKey,
      signingAlgorithm: SIGNING,
      extensions,
    });
  return {
    cert,
    pem: cert.toString('pem'),
    signAgent: async (csrPem, nodeId, days = 90) => {
      const csr = new x509.Pkcs10CertificateRequest(csrPem);
      return issue(`CN=node-${nodeId}`, csr.publicKey, days, [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: 'dns', value: `node-${nodeId}.gpucloud.internal` },
        ]),
      ]);
    },
    client: async () => {
      const clientKeys = await keyPair();
      const clientCert = await issue('CN=gpucloud-control-plane', clientKeys.publicKey, 30, [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      ]);
      return { keyPem: await pkcs8Pem(clientKeys.privateKey), certPem: clientCert.toString('pem') };
    },
  };
}

export interface JoinRequestSeen {
  token: string;
  node_name: string;
  public_host: string;
  grpc_port: number;
  address?: string;
  csrCommonName: string;
}

export interface StandInControlPlane {
  url: string;
  ca: TestCa;
  /** The join requests accepted, in order. */
  joins: JoinRequestSeen[];
  /** Mints a join token (single use). */
  token(): string;
  close(): Promise<void>;
}

/**
 * POST /api/agent/join as the design describes it: 401 `加入令牌无效或已过期` for an unknown or
 * used token; 400 for a request whose CSR does not verify or whose key is not P-256; else 201
 * with a node id, a fresh node token, the certificate (CN node-<id>) and the CA.
 */
export async function startStandInControlPlane(
  options: {
    /** Answers other requests first (e.g. GET /install/*); true when it answered. */
    routes?: (req: http.IncomingMessage, res: http.ServerResponse, url: string) => boolean;
  } = {},
): Promise<StandInControlPlane> {
  const ca = await makeTestCa();
  const tokens = new Set<string>();
  const joins: JoinRequestSeen[] = [];
  let nextNode = 7;
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  let url = '';
  const server = http.createServer((req, res) => {
    if (options.routes?.(req, res, url)) return;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/api/agent/join')
          return answer(res, 404, { detail: '资源不存在' });
        if (!String(req.headers['content-type']).startsWith('application/json')) {
          return answer(res, 415, { detail: '请求体须为 JSON' });
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return answer(res, 400, { detail: '请求体不是有效的 JSON' });
        }
        const { token, csr_pem, node_name, public_host, grpc_port, address } = body;
        if (typeof token !== 'string' || !tokens.has(token)) {
          return answer(res, 401, { detail: '加入令牌无效或已过期', code: 'UNAUTHORIZED' });
        }
        if (
          typeof csr_pem !== 'string' ||
          typeof node_name !== 'string' ||
          typeof public_host !== 'string' ||
          !Number.isInteger(grpc_port) ||
          (address !== undefined && typeof address !== 'string')
        ) {
          return answer(res, 400, { detail: '加入请求的字段不完整' });
        }
        let csr: x509.Pkcs10CertificateRequest;
        try {
          csr = new x509.Pkcs10CertificateRequest(csr_pem);
        } catch {
          return answer(res, 400, { detail: '证书签名请求无效' });
        }
        const algorithm = csr.publicKey.algorithm as { name?: string; namedCurve?: string };
        if (!(await csr.verify()) || algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256') {
          return answer(res, 400, { detail: '证书签名请求无效（须为 ECDSA P-256 且签名正确）' });
        }
        tokens.delete(token); // single use
        const nodeId = nextNode++;
        const cert = await ca.signAgent(csr_pem, nodeId);
        joins.push({
          token,
          node_name,
          public_host,
          grpc_port: grpc_port as number,
          ...(typeof address === 'string' ? { address } : {}),
          csrCommonName: csr.subjectName.getField('CN')[0] ?? '',
        });
        answer(res, 201, {
          node_id: nodeId,
          node_token: randomBytes(24).toString('hex'),
          certificate_pem: cert.toString('pem'),
          ca_certificate_pem: ca.pem,
          server_name: `node-${nodeId}.gpucloud.internal`,
        });
      })().catch((err: unknown) => answer(res, 500, { detail: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    ca,
    joins,
    token: () => {
      const token = `gcj_${randomBytes(24).toString('base64url')}`;
      tokens.add(token);
      return token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
